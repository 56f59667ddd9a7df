// Triangle counting driver: the undirected simple graph of the input (made
// symmetric, self-loops removed) is counted and checked against the CPU count.
#include "../../common/graph_device.cuh"
#include "../../common/reference.h"

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  std::string input = args.str("input", "bench/data/rmat12.sym.gr");
  bench::CsrGraph g = bench::symmetrized(bench::load_any(input));
  unsigned long long expected = bench::ref_triangles(g);
  std::printf("# %s: %llu triangles\n", input.c_str(), expected);
  bench::print_device_report();
  bench::DeviceGraph dg(g);
  bench::DeviceArray<unsigned long long> count(1);
  auto cfg = bench::config_from(args, "tc", bench::dataset_name(input));
  return bench::run_bench(
      cfg,
      [&] {
        count.poison();
        return tc_run(dg.view, count.ptr);
      },
      [&]() -> std::string {
        unsigned long long got = count.download()[0];
        return got == expected ? "" : "counted " + std::to_string(got) + ", expected " + std::to_string(expected);
      });
}
