// CPU references for every app: the results GPU variants are checked against.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench_api.h"
#include "graph.h"
#include "sat.h"

namespace bench {

std::vector<int> ref_bfs(const CsrGraph& g, int source);
std::vector<int> ref_sssp(const CsrGraph& g, int source);  // INT_MAX if unreachable
std::vector<double> ref_spmv(const CsrGraph& a, const std::vector<float>& x);
uint64_t ref_triangles(const CsrGraph& g);
std::vector<int> ref_gc(const CsrGraph& g);
bool is_valid_coloring(const CsrGraph& g, const std::vector<int>& colors);
void ref_bt(const std::vector<BezierLine>& lines, std::vector<int>& num_points, std::vector<double>& sums);
std::vector<int> ref_ms(int width, int height, int max_dwell);
std::vector<uint64_t> ref_qt(const std::vector<float>& x, const std::vector<float>& y, int max_depth,
                             int min_points);
// QT check: "" when every point's leaf key equals the reference, else the first mismatch and the count.
std::string check_qt_keys(const std::vector<uint64_t>& expected, const std::vector<uint64_t>& got);
// Shape of the tree given by per-point leaf keys: distinct leaves, non-leaf nodes, deepest leaf.
struct QtShape {
  size_t leaves = 0, inner = 0;
  int depth = 0;
};
QtShape qt_shape(const std::vector<uint64_t>& keys);

// Survey propagation: the variables' values (-1 free) and the clauses
// satisfied after kSpRounds rounds.
void ref_sp(const SatFormula& f, std::vector<int>& value, std::vector<int>& satisfied);

// Inputs for the non-graph apps, deterministic from the seed.
std::vector<BezierLine> make_bezier_lines(int n, uint64_t seed);
void make_clustered_points(int n, uint64_t seed, std::vector<float>& x, std::vector<float>& y);
std::vector<float> make_vector(int n, uint64_t seed);

}  // namespace bench
