// Writes the suite's generated data sets as LonestarGPU .gr files and prints
// a one-line summary of any .gr/.mtx file.
//   bench_gen kron SCALE EDGE_FACTOR SEED OUT.gr
//   bench_gen rmat SCALE EDGE_FACTOR SEED OUT.gr
//   bench_gen mesh WIDTH HEIGHT SEED OUT.gr
//   bench_gen info FILE
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "graph.h"

namespace {

void print_info(const std::string& name, const bench::CsrGraph& g) {
  std::printf("%s: %d vertices, %d directed edges, mean degree %.2f, max degree %d, symmetric %s, self-loops %s\n",
              name.c_str(), g.num_nodes, g.num_edges(), g.num_nodes ? double(g.num_edges()) / g.num_nodes : 0.0,
              bench::max_degree(g), bench::is_symmetric(g) ? "yes" : "no", bench::has_self_loops(g) ? "yes" : "no");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "info" && argc == 3) {
      print_info(argv[2], bench::load_any(argv[2]));
      return 0;
    }
    if ((cmd == "kron" || cmd == "rmat" || cmd == "mesh") && argc == 6) {
      int a = std::atoi(argv[2]), b = std::atoi(argv[3]);
      uint64_t seed = std::strtoull(argv[4], nullptr, 10);
      bench::CsrGraph g = cmd == "kron"   ? bench::generate_kronecker(a, b, seed)
                          : cmd == "rmat" ? bench::generate_rmat(a, b, seed)
                                          : bench::generate_mesh(a, b, seed);
      bench::save_gr(g, argv[5]);
      print_info(argv[5], g);
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gen: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr,
               "usage: bench_gen kron|rmat SCALE EDGE_FACTOR SEED OUT.gr\n"
               "       bench_gen mesh WIDTH HEIGHT SEED OUT.gr\n"
               "       bench_gen info FILE\n");
  return 2;
}
