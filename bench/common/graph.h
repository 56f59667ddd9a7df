// Host-side sparse data sets for the benchmark suite: CSR graphs and matrices,
// their generators (Graph500 Kronecker, R-MAT, road-like mesh) and file
// formats (LonestarGPU/Galois binary .gr, MatrixMarket). Plain C++17, usable
// from g++ and from nvcc host code alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

// Compressed sparse rows. For a graph, col_indices are the neighbours and
// values the integer edge weights; for a matrix, values_f holds the entries.
struct CsrGraph {
  int num_nodes = 0;
  std::vector<int> row_offsets;  // num_nodes + 1
  std::vector<int> col_indices;  // num_edges
  std::vector<int> weights;      // num_edges, empty if unweighted
  std::vector<float> values;     // num_edges, matrix entries (may be empty)

  int num_edges() const { return static_cast<int>(col_indices.size()); }
  int degree(int v) const { return row_offsets[v + 1] - row_offsets[v]; }
};

// Deterministic, platform-independent random numbers (splitmix64), so that a
// data set is a function of its parameters and seed alone.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 53 bits.
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
  uint64_t below(uint64_t n) { return next() % n; }

 private:
  uint64_t state_;
};

// Undirected edge list → symmetric CSR with sorted neighbour lists, self-loops
// and duplicate edges removed, weights derived from (min, max, seed) so both
// directions of an edge carry the same weight.
CsrGraph build_symmetric(int num_nodes, const std::vector<std::pair<int, int>>& edges,
                         uint64_t weight_seed, int max_weight = 100);

// Graph500 Kronecker graph: 2^scale vertices, edge_factor * 2^scale generated
// edges, initiator (0.57, 0.19, 0.19, 0.05), vertex labels permuted.
CsrGraph generate_kronecker(int scale, int edge_factor, uint64_t seed);

// R-MAT graph with initiator (a, b, c, 1-a-b-c), no label permutation.
CsrGraph generate_rmat(int scale, int edge_factor, uint64_t seed, double a = 0.45,
                       double b = 0.22, double c = 0.22);

// Road-like planar mesh: width x height grid, each grid edge kept with
// probability 0.72 and a diagonal added with probability 0.04, giving an
// average degree near 3 and a maximum degree of at most 8.
CsrGraph generate_mesh(int width, int height, uint64_t seed);

// LonestarGPU / Galois binary CSR, version 1 (uint64 header: version,
// edge-data size, nodes, edges; uint64 row ends; uint32 destinations padded to
// 8 bytes; then edge data). Edge data of size 4 is read as int weights.
CsrGraph load_gr(const std::string& path);
void save_gr(const CsrGraph& g, const std::string& path);

// MatrixMarket coordinate file (real/integer/pattern, general/symmetric).
// Symmetric files are expanded; entries are sorted by column within a row.
// Weights are filled with 1 + (|value| mod 100) so the matrix also serves as a graph.
CsrGraph load_mtx(const std::string& path);
void save_mtx(const CsrGraph& m, const std::string& path);

// Loads by extension (.gr or .mtx).
CsrGraph load_any(const std::string& path);

// The undirected simple graph underlying g: both directions of every edge,
// self-loops and duplicates removed, sorted neighbour lists.
CsrGraph symmetrized(const CsrGraph& g, uint64_t weight_seed = 1);

// Adds matrix values derived from the weights if the graph has none.
void ensure_values(CsrGraph& g);

bool is_symmetric(const CsrGraph& g);
bool has_self_loops(const CsrGraph& g);
bool is_sorted_unique(const CsrGraph& g);
int max_degree(const CsrGraph& g);

}  // namespace bench
