// Graph colouring driver: Jones–Plassmann on the undirected simple graph of
// the input; the colouring must be valid and equal to the CPU rounds.
#include "../../common/graph_device.cuh"
#include "../../common/reference.h"

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  std::string input = args.str("input", "bench/data/bcsstk13.mtx");
  bench::CsrGraph g = bench::symmetrized(bench::load_any(input));
  std::vector<int> expected = bench::ref_gc(g);
  std::printf("# %s: %d colours\n", input.c_str(), 1 + *std::max_element(expected.begin(), expected.end()));
  bench::print_device_report();
  bench::DeviceGraph dg(g);
  bench::DeviceArray<int> colors(g.num_nodes);
  auto cfg = bench::config_from(args, "gc", bench::dataset_name(input));
  return bench::run_bench(
      cfg,
      [&] {
        colors.poison();
        return gc_run(dg.view, colors.ptr);
      },
      [&]() -> std::string {
        std::vector<int> got = colors.download();
        if (!bench::is_valid_coloring(g, got)) return "invalid colouring";
        for (int v = 0; v < g.num_nodes; ++v)
          if (got[v] != expected[v])
            return "colour of vertex " + std::to_string(v) + " is " + std::to_string(got[v]) + ", expected " +
                   std::to_string(expected[v]);
        return "";
      });
}
