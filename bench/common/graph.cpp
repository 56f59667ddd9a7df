#include "graph.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace bench {

namespace {

uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

int edge_weight(int u, int v, uint64_t seed, int max_weight) {
  uint64_t lo = static_cast<uint64_t>(std::min(u, v));
  uint64_t hi = static_cast<uint64_t>(std::max(u, v));
  return 1 + static_cast<int>(mix(seed ^ (lo << 32 | hi)) % static_cast<uint64_t>(max_weight));
}

// Counting sort of (row, col) pairs into CSR, then per-row sort + dedup.
CsrGraph pairs_to_csr(int num_nodes, std::vector<std::pair<int, int>>& pairs) {
  CsrGraph g;
  g.num_nodes = num_nodes;
  std::vector<int> count(num_nodes + 1, 0);
  for (auto& p : pairs) count[p.first + 1]++;
  for (int i = 0; i < num_nodes; ++i) count[i + 1] += count[i];
  std::vector<int> cols(pairs.size());
  std::vector<int> fill(count.begin(), count.end() - 1);
  for (auto& p : pairs) cols[fill[p.first]++] = p.second;
  g.row_offsets.assign(num_nodes + 1, 0);
  g.col_indices.reserve(pairs.size());
  for (int v = 0; v < num_nodes; ++v) {
    auto b = cols.begin() + count[v], e = cols.begin() + count[v + 1];
    std::sort(b, e);
    e = std::unique(b, e);
    g.col_indices.insert(g.col_indices.end(), b, e);
    g.row_offsets[v + 1] = static_cast<int>(g.col_indices.size());
  }
  return g;
}

}  // namespace

CsrGraph build_symmetric(int num_nodes, const std::vector<std::pair<int, int>>& edges,
                         uint64_t weight_seed, int max_weight) {
  std::vector<std::pair<int, int>> pairs;
  pairs.reserve(edges.size() * 2);
  for (auto& e : edges) {
    if (e.first == e.second) continue;
    pairs.emplace_back(e.first, e.second);
    pairs.emplace_back(e.second, e.first);
  }
  CsrGraph g = pairs_to_csr(num_nodes, pairs);
  g.weights.resize(g.col_indices.size());
  for (int v = 0; v < num_nodes; ++v)
    for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e)
      g.weights[e] = edge_weight(v, g.col_indices[e], weight_seed, max_weight);
  return g;
}

static CsrGraph recursive_matrix(int scale, int edge_factor, uint64_t seed, double a, double b,
                                 double c, bool permute) {
  if (scale < 1 || scale > 26) throw std::invalid_argument("scale out of range");
  const int n = 1 << scale;
  const int64_t m = static_cast<int64_t>(edge_factor) << scale;
  Rng rng(seed);
  std::vector<std::pair<int, int>> edges(static_cast<size_t>(m));
  const double ab = a + b, abc = a + b + c;
  for (int64_t i = 0; i < m; ++i) {
    int u = 0, v = 0;
    for (int bit = 0; bit < scale; ++bit) {
      double r = rng.uniform();
      int ub = r >= ab;                          // lower half of the matrix: c or d
      int vb = (r >= a && r < ab) || r >= abc;   // right half: b or d
      u |= ub << bit;
      v |= vb << bit;
    }
    edges[static_cast<size_t>(i)] = {u, v};
  }
  if (permute) {
    std::vector<int> perm(n);
    for (int i = 0; i < n; ++i) perm[i] = i;
    for (int i = n - 1; i > 0; --i) std::swap(perm[i], perm[rng.below(static_cast<uint64_t>(i) + 1)]);
    for (auto& e : edges) e = {perm[e.first], perm[e.second]};
  }
  return build_symmetric(n, edges, seed * 31 + 7);
}

CsrGraph generate_kronecker(int scale, int edge_factor, uint64_t seed) {
  return recursive_matrix(scale, edge_factor, seed, 0.57, 0.19, 0.19, true);
}

CsrGraph generate_rmat(int scale, int edge_factor, uint64_t seed, double a, double b, double c) {
  return recursive_matrix(scale, edge_factor, seed, a, b, c, false);
}

CsrGraph generate_mesh(int width, int height, uint64_t seed) {
  Rng rng(seed);
  std::vector<std::pair<int, int>> edges;
  auto id = [width](int x, int y) { return y * width + x; };
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      if (x + 1 < width && rng.uniform() < 0.72) edges.emplace_back(id(x, y), id(x + 1, y));
      if (y + 1 < height && rng.uniform() < 0.72) edges.emplace_back(id(x, y), id(x, y + 1));
      if (x + 1 < width && y + 1 < height && rng.uniform() < 0.04)
        edges.emplace_back(id(x, y), id(x + 1, y + 1));
      if (x > 0 && y + 1 < height && rng.uniform() < 0.04)
        edges.emplace_back(id(x, y), id(x - 1, y + 1));
    }
  }
  return build_symmetric(width * height, edges, seed * 31 + 7);
}

CsrGraph load_gr(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  uint64_t header[4];
  in.read(reinterpret_cast<char*>(header), sizeof header);
  if (!in || header[0] != 1) throw std::runtime_error(path + ": not a version-1 .gr file");
  const uint64_t edge_size = header[1], n = header[2], m = header[3];
  if (n > (1ull << 31) - 2 || m > (1ull << 31) - 1) throw std::runtime_error(path + ": too large");
  CsrGraph g;
  g.num_nodes = static_cast<int>(n);
  std::vector<uint64_t> ends(n);
  in.read(reinterpret_cast<char*>(ends.data()), static_cast<std::streamsize>(n * 8));
  g.row_offsets.assign(n + 1, 0);
  for (uint64_t i = 0; i < n; ++i) g.row_offsets[i + 1] = static_cast<int>(ends[i]);
  std::vector<uint32_t> dst(m);
  in.read(reinterpret_cast<char*>(dst.data()), static_cast<std::streamsize>(m * 4));
  g.col_indices.assign(dst.begin(), dst.end());
  if (m % 2) in.ignore(4);
  if (edge_size == 4) {
    g.weights.resize(m);
    in.read(reinterpret_cast<char*>(g.weights.data()), static_cast<std::streamsize>(m * 4));
  } else if (edge_size != 0) {
    throw std::runtime_error(path + ": unsupported edge data size");
  }
  if (!in) throw std::runtime_error(path + ": truncated");
  if (g.row_offsets[n] != static_cast<int>(m)) throw std::runtime_error(path + ": inconsistent row ends");
  return g;
}

void save_gr(const CsrGraph& g, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + path);
  const uint64_t m = static_cast<uint64_t>(g.num_edges());
  uint64_t header[4] = {1, g.weights.empty() ? 0u : 4u, static_cast<uint64_t>(g.num_nodes), m};
  out.write(reinterpret_cast<const char*>(header), sizeof header);
  std::vector<uint64_t> ends(g.row_offsets.begin() + 1, g.row_offsets.end());
  out.write(reinterpret_cast<const char*>(ends.data()), static_cast<std::streamsize>(ends.size() * 8));
  out.write(reinterpret_cast<const char*>(g.col_indices.data()), static_cast<std::streamsize>(m * 4));
  if (m % 2) {
    uint32_t pad = 0;
    out.write(reinterpret_cast<const char*>(&pad), 4);
  }
  if (!g.weights.empty())
    out.write(reinterpret_cast<const char*>(g.weights.data()), static_cast<std::streamsize>(m * 4));
}

CsrGraph load_mtx(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string line;
  std::getline(in, line);
  if (line.rfind("%%MatrixMarket", 0) != 0) throw std::runtime_error(path + ": no MatrixMarket banner");
  const bool symmetric = line.find("symmetric") != std::string::npos;
  const bool pattern = line.find("pattern") != std::string::npos;
  if (line.find("coordinate") == std::string::npos) throw std::runtime_error(path + ": not coordinate");
  while (std::getline(in, line) && !line.empty() && line[0] == '%') {
  }
  long rows = 0, cols = 0, nnz = 0;
  std::istringstream(line) >> rows >> cols >> nnz;
  if (rows <= 0 || rows != cols) throw std::runtime_error(path + ": need a square matrix");
  std::vector<std::tuple<int, int, float>> entries;
  entries.reserve(static_cast<size_t>(symmetric ? 2 * nnz : nnz));
  for (long k = 0; k < nnz; ++k) {
    long r, c;
    double v = 1.0;
    if (!(in >> r >> c)) throw std::runtime_error(path + ": truncated");
    if (!pattern) in >> v;
    entries.emplace_back(static_cast<int>(r - 1), static_cast<int>(c - 1), static_cast<float>(v));
    if (symmetric && r != c) entries.emplace_back(static_cast<int>(c - 1), static_cast<int>(r - 1), static_cast<float>(v));
  }
  std::sort(entries.begin(), entries.end(), [](const auto& x, const auto& y) {
    return std::tie(std::get<0>(x), std::get<1>(x)) < std::tie(std::get<0>(y), std::get<1>(y));
  });
  CsrGraph g;
  g.num_nodes = static_cast<int>(rows);
  g.row_offsets.assign(rows + 1, 0);
  for (size_t k = 0; k < entries.size(); ++k) {
    auto [r, c, v] = entries[k];
    if (k > 0 && std::get<0>(entries[k - 1]) == r && std::get<1>(entries[k - 1]) == c) continue;
    g.col_indices.push_back(c);
    g.values.push_back(v);
    g.weights.push_back(1 + static_cast<int>(std::fmod(std::fabs(static_cast<double>(v)), 100.0)));
    g.row_offsets[r + 1]++;
  }
  for (long i = 0; i < rows; ++i) g.row_offsets[i + 1] += g.row_offsets[i];
  return g;
}

void save_mtx(const CsrGraph& m, const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw std::runtime_error("cannot write " + path);
  std::fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", m.num_nodes, m.num_nodes,
               m.num_edges());
  for (int r = 0; r < m.num_nodes; ++r)
    for (int e = m.row_offsets[r]; e < m.row_offsets[r + 1]; ++e)
      std::fprintf(f, "%d %d %.9g\n", r + 1, m.col_indices[e] + 1,
                   m.values.empty() ? 1.0 : static_cast<double>(m.values[e]));
  std::fclose(f);
}

CsrGraph load_any(const std::string& path) {
  auto ends_with = [&](const char* s) {
    std::string suf(s);
    return path.size() >= suf.size() && path.compare(path.size() - suf.size(), suf.size(), suf) == 0;
  };
  if (ends_with(".gr")) return load_gr(path);
  if (ends_with(".mtx")) return load_mtx(path);
  throw std::runtime_error(path + ": unknown format (want .gr or .mtx)");
}

CsrGraph symmetrized(const CsrGraph& g, uint64_t weight_seed) {
  std::vector<std::pair<int, int>> edges;
  edges.reserve(g.col_indices.size());
  for (int v = 0; v < g.num_nodes; ++v)
    for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e) edges.emplace_back(v, g.col_indices[e]);
  return build_symmetric(g.num_nodes, edges, weight_seed);
}

void ensure_values(CsrGraph& g) {
  if (!g.values.empty()) return;
  g.values.resize(g.col_indices.size());
  for (size_t e = 0; e < g.col_indices.size(); ++e)
    g.values[e] = g.weights.empty() ? 1.0f : static_cast<float>(g.weights[e]) / 64.0f;
}

bool is_symmetric(const CsrGraph& g) {
  for (int v = 0; v < g.num_nodes; ++v)
    for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e) {
      int u = g.col_indices[e];
      auto b = g.col_indices.begin() + g.row_offsets[u], en = g.col_indices.begin() + g.row_offsets[u + 1];
      if (!std::binary_search(b, en, v)) return false;
    }
  return true;
}

bool has_self_loops(const CsrGraph& g) {
  for (int v = 0; v < g.num_nodes; ++v)
    for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e)
      if (g.col_indices[e] == v) return true;
  return false;
}

bool is_sorted_unique(const CsrGraph& g) {
  for (int v = 0; v < g.num_nodes; ++v)
    for (int e = g.row_offsets[v] + 1; e < g.row_offsets[v + 1]; ++e)
      if (g.col_indices[e - 1] >= g.col_indices[e]) return false;
  return true;
}

int max_degree(const CsrGraph& g) {
  int d = 0;
  for (int v = 0; v < g.num_nodes; ++v) d = std::max(d, g.degree(v));
  return d;
}

}  // namespace bench
