// SSSP driver: loads a weighted graph (weights 1 if the file has none), runs
// the linked variant's sssp_run from the highest-degree vertex and checks
// every repetition against Dijkstra on the CPU.
#include "../../common/graph_device.cuh"
#include "../../common/reference.h"

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  std::string input = args.str("input", "bench/data/rmat12.sym.gr");
  bench::CsrGraph g = bench::load_any(input);
  if (g.weights.empty()) g.weights.assign(g.col_indices.size(), 1);
  int source = static_cast<int>(args.num("source", bench::max_degree_vertex(g)));
  std::vector<int> expected = bench::ref_sssp(g, source);
  bench::print_device_report();
  bench::DeviceGraph dg(g);
  bench::DeviceArray<int> dist(g.num_nodes);
  auto cfg = bench::config_from(args, "sssp", bench::dataset_name(input));
  return bench::run_bench(
      cfg,
      [&] {
        dist.poison();
        return sssp_run(dg.view, source, dist.ptr);
      },
      [&]() -> std::string {
        std::vector<int> got = dist.download();
        for (int v = 0; v < g.num_nodes; ++v)
          if (got[v] != expected[v])
            return "distance of vertex " + std::to_string(v) + " is " + std::to_string(got[v]) + ", expected " +
                   std::to_string(expected[v]);
        return "";
      });
}
