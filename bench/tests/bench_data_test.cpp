// Unit tests for the suite's data sets (generators, file formats) and the CPU
// references the GPU variants are checked against.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "graph.h"
#include "reference.h"
#include "sat.h"

namespace {

using bench::CsrGraph;

CsrGraph from_edges(int n, std::vector<std::pair<int, int>> edges) { return bench::build_symmetric(n, edges, 7); }

std::string temp_path(const std::string& name) { return ::testing::TempDir() + "/" + name; }

TEST(Generators, KroneckerIsSimpleSymmetricAndSkewed) {
  CsrGraph g = bench::generate_kronecker(12, 16, 3);
  EXPECT_EQ(g.num_nodes, 4096);
  EXPECT_TRUE(bench::is_symmetric(g));
  EXPECT_FALSE(bench::has_self_loops(g));
  EXPECT_TRUE(bench::is_sorted_unique(g));
  double mean = double(g.num_edges()) / g.num_nodes;
  EXPECT_GT(mean, 16.0);  // 16 generated per vertex, doubled, minus duplicates
  EXPECT_LT(mean, 32.0);
  EXPECT_GT(bench::max_degree(g), 20 * mean);  // power-law hubs
}

TEST(Generators, DeterministicFromSeed) {
  CsrGraph a = bench::generate_kronecker(10, 8, 5), b = bench::generate_kronecker(10, 8, 5);
  CsrGraph c = bench::generate_kronecker(10, 8, 6);
  EXPECT_EQ(a.col_indices, b.col_indices);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_NE(a.col_indices, c.col_indices);
}

TEST(Generators, RmatIsSimpleSymmetric) {
  CsrGraph g = bench::generate_rmat(11, 8, 1);
  EXPECT_TRUE(bench::is_symmetric(g));
  EXPECT_FALSE(bench::has_self_loops(g));
  EXPECT_GT(bench::max_degree(g), 5 * double(g.num_edges()) / g.num_nodes);
}

TEST(Generators, MeshIsRoadLike) {
  CsrGraph g = bench::generate_mesh(200, 150, 9);
  EXPECT_EQ(g.num_nodes, 30000);
  EXPECT_TRUE(bench::is_symmetric(g));
  EXPECT_FALSE(bench::has_self_loops(g));
  double mean = double(g.num_edges()) / g.num_nodes;
  EXPECT_GT(mean, 2.6);
  EXPECT_LT(mean, 3.4);
  EXPECT_LE(bench::max_degree(g), 8);
}

TEST(Generators, WeightsAreSymmetricAndPositive) {
  CsrGraph g = bench::generate_kronecker(9, 8, 2);
  for (int v = 0; v < g.num_nodes; ++v)
    for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e) {
      int u = g.col_indices[e];
      ASSERT_GE(g.weights[e], 1);
      ASSERT_LE(g.weights[e], 100);
      auto b = g.col_indices.begin() + g.row_offsets[u];
      int back = static_cast<int>(std::lower_bound(b, g.col_indices.begin() + g.row_offsets[u + 1], v) -
                                  g.col_indices.begin());
      ASSERT_EQ(g.weights[back], g.weights[e]);
    }
}

TEST(Formats, GrRoundTrip) {
  CsrGraph g = bench::generate_rmat(8, 5, 4);  // odd edge counts exercise the padding
  g.col_indices.pop_back();
  g.weights.pop_back();
  g.row_offsets.back()--;
  ASSERT_EQ(g.num_edges() % 2, 1);
  std::string path = temp_path("roundtrip.gr");
  bench::save_gr(g, path);
  CsrGraph h = bench::load_gr(path);
  EXPECT_EQ(h.num_nodes, g.num_nodes);
  EXPECT_EQ(h.row_offsets, g.row_offsets);
  EXPECT_EQ(h.col_indices, g.col_indices);
  EXPECT_EQ(h.weights, g.weights);
  std::remove(path.c_str());
}

TEST(Formats, MtxRoundTripAndSymmetricExpansion) {
  std::string path = temp_path("small.mtx");
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("%%MatrixMarket matrix coordinate real symmetric\n% comment\n3 3 4\n1 1 2.5\n2 1 -1\n3 2 4\n3 3 1\n", f);
    std::fclose(f);
  }
  CsrGraph m = bench::load_mtx(path);
  EXPECT_EQ(m.num_nodes, 3);
  EXPECT_EQ(m.row_offsets, (std::vector<int>{0, 2, 4, 6}));
  EXPECT_EQ(m.col_indices, (std::vector<int>{0, 1, 0, 2, 1, 2}));
  EXPECT_EQ(m.values, (std::vector<float>{2.5f, -1.f, -1.f, 4.f, 4.f, 1.f}));
  bench::save_mtx(m, path);
  CsrGraph n = bench::load_mtx(path);
  EXPECT_EQ(n.row_offsets, m.row_offsets);
  EXPECT_EQ(n.col_indices, m.col_indices);
  EXPECT_EQ(n.values, m.values);
  std::remove(path.c_str());
}

TEST(Formats, SharedFilesLoad) {
  CsrGraph g = bench::load_gr(BENCH_DATA_DIR "/rmat12.sym.gr");
  EXPECT_EQ(g.num_nodes, 4096);
  EXPECT_EQ(g.num_edges(), 59320);
  EXPECT_EQ(g.weights.size(), 59320u);
  CsrGraph m = bench::load_mtx(BENCH_DATA_DIR "/bcsstk13.mtx");
  EXPECT_EQ(m.num_nodes, 2003);
  EXPECT_TRUE(bench::is_symmetric(m));
  EXPECT_EQ(m.num_edges(), 2 * 42943 - 2003);  // symmetric expansion, diagonal once
}

// Path 0-1-2-3 plus the chord 0-2 and an isolated vertex 4.
CsrGraph small_graph() { return from_edges(5, {{0, 1}, {1, 2}, {2, 3}, {0, 2}}); }

TEST(References, Bfs) {
  EXPECT_EQ(bench::ref_bfs(small_graph(), 0), (std::vector<int>{0, 1, 1, 2, -1}));
  EXPECT_EQ(bench::ref_bfs(small_graph(), 3), (std::vector<int>{2, 2, 1, 0, -1}));
}

TEST(References, Sssp) {
  CsrGraph g = small_graph();
  // Weights by hand: 0-1:1, 1-2:1, 0-2:5, 2-3:2.
  auto set = [&](int a, int b, int w) {
    for (int e = g.row_offsets[a]; e < g.row_offsets[a + 1]; ++e)
      if (g.col_indices[e] == b) g.weights[e] = w;
    for (int e = g.row_offsets[b]; e < g.row_offsets[b + 1]; ++e)
      if (g.col_indices[e] == a) g.weights[e] = w;
  };
  set(0, 1, 1);
  set(1, 2, 1);
  set(0, 2, 5);
  set(2, 3, 2);
  EXPECT_EQ(bench::ref_sssp(g, 0), (std::vector<int>{0, 1, 2, 4, INT_MAX}));
}

TEST(References, Spmv) {
  CsrGraph m;
  m.num_nodes = 2;
  m.row_offsets = {0, 2, 3};
  m.col_indices = {0, 1, 1};
  m.values = {1.f, 2.f, 3.f};
  EXPECT_EQ(bench::ref_spmv(m, {10.f, 100.f}), (std::vector<double>{210.0, 300.0}));
}

TEST(References, Triangles) {
  EXPECT_EQ(bench::ref_triangles(small_graph()), 1u);
  // K4 has 4 triangles.
  EXPECT_EQ(bench::ref_triangles(from_edges(4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}})), 4u);
}

TEST(References, GraphColouringIsValidAndMatchesRounds) {
  CsrGraph g = bench::generate_kronecker(10, 8, 1);
  std::vector<int> c = bench::ref_gc(g);
  EXPECT_TRUE(bench::is_valid_coloring(g, c));
  // A triangle needs three colours.
  std::vector<int> t = bench::ref_gc(from_edges(3, {{0, 1}, {1, 2}, {0, 2}}));
  EXPECT_TRUE(bench::is_valid_coloring(from_edges(3, {{0, 1}, {1, 2}, {0, 2}}), t));
  EXPECT_EQ(std::max({t[0], t[1], t[2]}), 2);
  EXPECT_FALSE(bench::is_valid_coloring(from_edges(2, {{0, 1}}), {0, 0}));
}

TEST(References, BezierStraightLine) {
  // A straight line through its midpoint has zero curvature: 4 points, t = 0, 1/3, 2/3, 1.
  BezierLine l{{0.f, 0.5f, 1.f}, {0.f, 0.f, 0.f}};
  std::vector<int> n;
  std::vector<double> s;
  bench::ref_bt({l}, n, s);
  EXPECT_EQ(n[0], 4);
  EXPECT_NEAR(s[0], 0.0 + 1.0 / 3 + 2.0 / 3 + 1.0, 1e-9);
}

TEST(References, MandelbrotDwell) {
  std::vector<int> d = bench::ref_ms(4, 4, 100);
  // Pixel (3, 2) is c = 0 + 0i: inside the set, full dwell. Pixel (0, 0) is c = -1.5 - 1i: escapes quickly.
  EXPECT_EQ(d[2 * 4 + 3], 100);
  EXPECT_LT(d[0], 5);
}

TEST(References, QuadtreeKeys) {
  std::vector<float> x{0.1f, 0.2f, 0.9f, 0.6f, 0.7f}, y{0.1f, 0.3f, 0.1f, 0.9f, 0.6f};
  // min_points 1: the root (5 points) splits at 0.5; quadrants holding two points split again.
  std::vector<uint64_t> k = bench::ref_qt(x, y, 4, 1);
  EXPECT_EQ(k[2], 0b101u);   // root key 1, quadrant 1 (x >= 0.5, y < 0.5), alone: a leaf
  EXPECT_EQ(k[0], 0b10000u);  // quadrant 0, then its quadrant 0 around (0.25, 0.25)
  EXPECT_EQ(k[1], 0b10010u);  // quadrant 0, then quadrant 2
  EXPECT_EQ(k[3], 0b11110u);  // quadrant 3, then quadrant 2 around (0.75, 0.75)
  EXPECT_EQ(k[4], 0b11100u);  // quadrant 3, then quadrant 0
  // Depth limit: nothing splits below depth 1.
  EXPECT_EQ(bench::ref_qt(x, y, 1, 1)[4], 0b111u);
}

TEST(References, QuadtreeCheckAndShape) {
  std::vector<float> x{0.1f, 0.2f, 0.9f, 0.6f, 0.7f}, y{0.1f, 0.3f, 0.1f, 0.9f, 0.6f};
  std::vector<uint64_t> k = bench::ref_qt(x, y, 4, 1);
  EXPECT_EQ(bench::check_qt_keys(k, k), "");
  std::vector<uint64_t> bad = k;
  bad[3] = 0b111u;  // point 3 in its parent instead of its leaf
  EXPECT_NE(bench::check_qt_keys(k, bad), "");
  EXPECT_NE(bench::check_qt_keys(k, std::vector<uint64_t>(k.begin(), k.end() - 1)), "");
  bench::QtShape s = bench::qt_shape(k);
  EXPECT_EQ(s.leaves, 5u);  // every point alone in its leaf
  EXPECT_EQ(s.inner, 3u);   // the root and quadrants 0 and 3
  EXPECT_EQ(s.depth, 2);
}

TEST(Sat, SharedCnfLoadsWithItsOccurrences) {
  bench::SatFormula f = bench::load_cnf(BENCH_DATA_DIR "/random-42000-10000-3.cnf");
  EXPECT_EQ(f.num_vars, 10000);
  EXPECT_EQ(f.num_clauses(), 42000);
  EXPECT_EQ(f.num_literals(), 126000);
  // Every literal is listed once among its variable's occurrences.
  std::vector<int> seen(f.num_literals(), 0);
  for (int v = 0; v < f.num_vars; ++v)
    for (int o = f.var_start[v]; o < f.var_start[v + 1]; ++o) {
      int k = f.occ_literal[o];
      EXPECT_EQ(f.lit_var[k], v);
      ++seen[k];
    }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), f.num_literals());
  EXPECT_EQ(f.lit_clause[3], 1);
}

TEST(Sat, CnfErrorsAreReported) {
  std::string path = ::testing::TempDir() + "bad.cnf";
  FILE* out = std::fopen(path.c_str(), "w");
  std::fputs("p cnf 2 1\n1 3 0\n", out);
  std::fclose(out);
  EXPECT_THROW(bench::load_cnf(path), std::runtime_error);
  std::remove(path.c_str());
}

TEST(Sat, GeneratedClausesHaveDistinctVariables) {
  bench::SatFormula f = bench::generate_ksat(50, 210, 3, 7);
  EXPECT_EQ(f.num_clauses(), 210);
  for (int c = 0; c < f.num_clauses(); ++c) {
    ASSERT_EQ(f.clause_start[c + 1] - f.clause_start[c], 3);
    int k = f.clause_start[c];
    EXPECT_NE(f.lit_var[k], f.lit_var[k + 1]);
    EXPECT_NE(f.lit_var[k], f.lit_var[k + 2]);
    EXPECT_NE(f.lit_var[k + 1], f.lit_var[k + 2]);
  }
  EXPECT_EQ(bench::generate_ksat(50, 210, 3, 7).lit_var, f.lit_var);
}

TEST(References, SurveyPropagationFixesAndSatisfiesConsistently) {
  bench::SatFormula f = bench::load_cnf(BENCH_DATA_DIR "/random-42000-10000-3.cnf");
  std::vector<int> value, satisfied;
  bench::ref_sp(f, value, satisfied);
  int fixed = static_cast<int>(std::count_if(value.begin(), value.end(), [](int v) { return v >= 0; }));
  EXPECT_GT(fixed, 0);
  EXPECT_LT(fixed, f.num_vars + 1);
  // A clause is satisfied exactly when one of its literals agrees with a fixed value.
  for (int c = 0; c < f.num_clauses(); ++c) {
    int agrees = 0;
    for (int k = f.clause_start[c]; k < f.clause_start[c + 1]; ++k)
      agrees += value[f.lit_var[k]] == f.lit_sign[k];
    ASSERT_EQ(satisfied[c], agrees > 0 ? 1 : 0) << "clause " << c;
  }
}

}  // namespace
