// BFS driver: loads a graph, runs the linked variant's bfs_run from the
// highest-degree vertex, and checks every repetition against the CPU BFS.
#include "../../common/graph_device.cuh"
#include "../../common/reference.h"

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  std::string input = args.str("input", "bench/data/rmat12.sym.gr");
  bench::CsrGraph g = bench::load_any(input);
  int source = static_cast<int>(args.num("source", bench::max_degree_vertex(g)));
  std::vector<int> expected = bench::ref_bfs(g, source);
  bench::print_device_report();
  bench::DeviceGraph dg(g);
  bench::DeviceArray<int> levels(g.num_nodes);
  auto cfg = bench::config_from(args, "bfs", bench::dataset_name(input));
  return bench::run_bench(
      cfg,
      [&] {
        levels.poison();
        return bfs_run(dg.view, source, levels.ptr);
      },
      [&]() -> std::string {
        std::vector<int> got = levels.download();
        for (int v = 0; v < g.num_nodes; ++v)
          if (got[v] != expected[v])
            return "level of vertex " + std::to_string(v) + " is " + std::to_string(got[v]) + ", expected " +
                   std::to_string(expected[v]);
        return "";
      });
}
