#include "reference.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <queue>
#include <unordered_set>

namespace bench {

std::vector<int> ref_bfs(const CsrGraph& g, int source) {
  std::vector<int> level(g.num_nodes, -1);
  std::vector<int> queue{source};
  level[source] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    int v = queue[head];
    for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e) {
      int u = g.col_indices[e];
      if (level[u] < 0) {
        level[u] = level[v] + 1;
        queue.push_back(u);
      }
    }
  }
  return level;
}

std::vector<int> ref_sssp(const CsrGraph& g, int source) {
  std::vector<int> dist(g.num_nodes, INT_MAX);
  using Item = std::pair<long long, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  dist[source] = 0;
  pq.push({0, source});
  while (!pq.empty()) {
    auto [d, v] = pq.top();
    pq.pop();
    if (d > dist[v]) continue;
    for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e) {
      int u = g.col_indices[e];
      long long nd = d + g.weights[e];
      if (nd < dist[u]) {
        dist[u] = static_cast<int>(nd);
        pq.push({nd, u});
      }
    }
  }
  return dist;
}

std::vector<double> ref_spmv(const CsrGraph& a, const std::vector<float>& x) {
  std::vector<double> y(a.num_nodes, 0.0);
  for (int r = 0; r < a.num_nodes; ++r)
    for (int e = a.row_offsets[r]; e < a.row_offsets[r + 1]; ++e)
      y[r] += static_cast<double>(a.values[e]) * x[a.col_indices[e]];
  return y;
}

uint64_t ref_triangles(const CsrGraph& g) {
  uint64_t count = 0;
  for (int u = 0; u < g.num_nodes; ++u) {
    for (int e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      int v = g.col_indices[e];
      if (v <= u) continue;
      // |{w > v : w in N(u) and w in N(v)}| by merging sorted lists.
      int i = e + 1, j = g.row_offsets[v];
      const int ie = g.row_offsets[u + 1], je = g.row_offsets[v + 1];
      while (j < je && g.col_indices[j] <= v) ++j;
      while (i < ie && j < je) {
        int a = g.col_indices[i], b = g.col_indices[j];
        if (a == b) {
          ++count;
          ++i;
          ++j;
        } else if (a < b) {
          ++i;
        } else {
          ++j;
        }
      }
    }
  }
  return count;
}

std::vector<int> ref_gc(const CsrGraph& g) {
  std::vector<int> color(g.num_nodes, -1);
  std::vector<char> selected(g.num_nodes);
  int remaining = g.num_nodes;
  for (int round = 0; remaining > 0; ++round) {
    for (int v = 0; v < g.num_nodes; ++v) {
      selected[v] = 0;
      if (color[v] >= 0) continue;
      bool best = true;
      for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1] && best; ++e) {
        int u = g.col_indices[e];
        if (color[u] < 0 && gc_beats(u, v)) best = false;
      }
      selected[v] = best;
    }
    for (int v = 0; v < g.num_nodes; ++v)
      if (selected[v]) {
        color[v] = round;
        --remaining;
      }
  }
  return color;
}

bool is_valid_coloring(const CsrGraph& g, const std::vector<int>& colors) {
  for (int v = 0; v < g.num_nodes; ++v) {
    if (colors[v] < 0) return false;
    for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e)
      if (g.col_indices[e] != v && colors[g.col_indices[e]] == colors[v]) return false;
  }
  return true;
}

void ref_bt(const std::vector<BezierLine>& lines, std::vector<int>& num_points, std::vector<double>& sums) {
  num_points.resize(lines.size());
  sums.resize(lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    const BezierLine& l = lines[i];
    int n = bt_num_points(l);
    double s = 0;
    for (int k = 0; k < n; ++k) {
      double t = static_cast<double>(k) / (n - 1);
      double a = (1 - t) * (1 - t), b = 2 * t * (1 - t), c = t * t;
      s += a * l.x[0] + b * l.x[1] + c * l.x[2] + a * l.y[0] + b * l.y[1] + c * l.y[2];
    }
    num_points[i] = n;
    sums[i] = s;
  }
}

std::vector<int> ref_ms(int width, int height, int max_dwell) {
  std::vector<int> d(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) d[static_cast<size_t>(y) * width + x] = ms_pixel_dwell(width, height, max_dwell, x, y);
  return d;
}

namespace {
void qt_node(const std::vector<float>& x, const std::vector<float>& y, std::vector<int>& idx, int begin, int end,
             float x0, float y0, float x1, float y1, int depth, uint64_t key, int max_depth, int min_points,
             std::vector<uint64_t>& keys) {
  if (end - begin <= min_points || depth >= max_depth) {
    for (int i = begin; i < end; ++i) keys[idx[i]] = key;
    return;
  }
  float mx = 0.5f * (x0 + x1), my = 0.5f * (y0 + y1);
  std::vector<int> part[4];
  for (int i = begin; i < end; ++i) part[qt_quadrant(x[idx[i]], y[idx[i]], mx, my)].push_back(idx[i]);
  int pos = begin;
  for (int q = 0; q < 4; ++q) {
    int b = pos;
    for (int p : part[q]) idx[pos++] = p;
    float cx0 = (q & 1) ? mx : x0, cx1 = (q & 1) ? x1 : mx;
    float cy0 = (q & 2) ? my : y0, cy1 = (q & 2) ? y1 : my;
    if (pos > b)
      qt_node(x, y, idx, b, pos, cx0, cy0, cx1, cy1, depth + 1, key << 2 | static_cast<uint64_t>(q), max_depth,
              min_points, keys);
  }
}
}  // namespace

std::vector<uint64_t> ref_qt(const std::vector<float>& x, const std::vector<float>& y, int max_depth,
                             int min_points) {
  std::vector<int> idx(x.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int>(i);
  std::vector<uint64_t> keys(x.size());
  qt_node(x, y, idx, 0, static_cast<int>(x.size()), 0.f, 0.f, 1.f, 1.f, 0, 1, max_depth, min_points, keys);
  return keys;
}

std::string check_qt_keys(const std::vector<uint64_t>& expected, const std::vector<uint64_t>& got) {
  if (got.size() != expected.size())
    return std::to_string(got.size()) + " keys, expected " + std::to_string(expected.size());
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != expected[i] && bad++ == 0) first = i;
  }
  if (bad == 0) return "";
  return std::to_string(bad) + " points in the wrong leaf; point " + std::to_string(first) + " has key " +
         std::to_string(got[first]) + ", expected " + std::to_string(expected[first]);
}

QtShape qt_shape(const std::vector<uint64_t>& keys) {
  QtShape s;
  std::unordered_set<uint64_t> leaves(keys.begin(), keys.end()), inner;
  for (uint64_t k : leaves) {
    int d = 0;
    for (uint64_t p = k; p > 1; p >>= 2) ++d;
    s.depth = std::max(s.depth, d);
    for (uint64_t p = k >> 2; p >= 1; p >>= 2) {
      if (!inner.insert(p).second) break;  // its ancestors are in already
    }
  }
  s.leaves = leaves.size();
  s.inner = inner.size();
  return s;
}

std::vector<BezierLine> make_bezier_lines(int n, uint64_t seed) {
  Rng rng(seed);
  std::vector<BezierLine> lines(n);
  for (auto& l : lines) {
    for (int k = 0; k < 3; ++k) {
      l.x[k] = static_cast<float>(rng.uniform());
      l.y[k] = static_cast<float>(rng.uniform());
    }
  }
  return lines;
}

void make_clustered_points(int n, uint64_t seed, std::vector<float>& x, std::vector<float>& y) {
  Rng rng(seed);
  const int clusters = 64;
  std::vector<float> cx(clusters), cy(clusters), cs(clusters);
  for (int c = 0; c < clusters; ++c) {
    cx[c] = static_cast<float>(rng.uniform());
    cy[c] = static_cast<float>(rng.uniform());
    cs[c] = static_cast<float>(0.002 + 0.05 * rng.uniform());
  }
  x.resize(n);
  y.resize(n);
  for (int i = 0; i < n; ++i) {
    int c = static_cast<int>(rng.below(clusters));
    // Box–Muller normal around the cluster centre, clamped into [0, 1).
    double r = std::sqrt(-2.0 * std::log(1.0 - rng.uniform())), t = 6.283185307179586 * rng.uniform();
    double px = cx[c] + cs[c] * r * std::cos(t), py = cy[c] + cs[c] * r * std::sin(t);
    x[i] = static_cast<float>(std::min(std::max(px, 0.0), 0.999999));
    y[i] = static_cast<float>(std::min(std::max(py, 0.0), 0.999999));
  }
}

void ref_sp(const SatFormula& f, std::vector<int>& value, std::vector<int>& satisfied) {
  const int n = f.num_vars, m = f.num_clauses();
  value.assign(n, -1);
  satisfied.assign(m, 0);
  std::vector<unsigned> pos(n, kSpOne / 2), neg(n, kSpOne / 2), eta(f.num_literals(), 0);
  std::vector<int> fixed_now(n, 0);
  for (int round = 0; round < kSpRounds; ++round) {
    // Each clause's survey to each of its free variables.
    for (int c = 0; c < m; ++c)
      for (int k = f.clause_start[c]; k < f.clause_start[c + 1]; ++k) {
        unsigned survey = 0;
        if (!satisfied[c] && value[f.lit_var[k]] < 0) {
          survey = kSpOne;
          for (int j = f.clause_start[c]; j < f.clause_start[c + 1]; ++j) {
            int u = f.lit_var[j];
            if (j != k && value[u] < 0) survey = sp_times(survey, sp_against(f.lit_sign[j], pos[u], neg[u]));
          }
        }
        eta[k] = survey;
      }
    // Each free variable's biases from its surveys; decimation.
    const int threshold = sp_threshold(round);
    for (int v = 0; v < n; ++v) {
      fixed_now[v] = 0;
      if (value[v] >= 0) continue;
      unsigned toward_true = 0, toward_false = 0;
      for (int o = f.var_start[v]; o < f.var_start[v + 1]; ++o) {
        int k = f.occ_literal[o];
        if (satisfied[f.lit_clause[k]]) continue;
        (f.lit_sign[k] ? toward_true : toward_false) += eta[k];
      }
      pos[v] = sp_bias(toward_true, toward_false);
      neg[v] = sp_bias(toward_false, toward_true);
      int lean = static_cast<int>(pos[v]) - static_cast<int>(neg[v]);
      if (lean > threshold || -lean > threshold) {
        value[v] = lean > 0 ? 1 : 0;
        fixed_now[v] = 1;
      }
    }
    // The fixed variables satisfy the clauses where their literal agrees.
    for (int v = 0; v < n; ++v)
      if (fixed_now[v])
        for (int o = f.var_start[v]; o < f.var_start[v + 1]; ++o) {
          int k = f.occ_literal[o];
          if (f.lit_sign[k] == value[v]) satisfied[f.lit_clause[k]] = 1;
        }
  }
}

std::vector<float> make_vector(int n, uint64_t seed) {
  Rng rng(seed);
  std::vector<float> v(n);
  for (auto& e : v) e = static_cast<float>(rng.uniform() * 2.0 - 1.0);
  return v;
}

}  // namespace bench
