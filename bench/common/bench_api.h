// The contract between the benchmark drivers and the variants.
//
// Every variant of an app is one .cu file that defines that app's entry
// function below (and nothing else the driver calls). A variant file is
// self-contained: parent kernels, child kernels and the host entry live in it,
// so launchopt can take a CDP file as input unchanged and its output can be
// built in place of, or beside, the original (see bench/variants.txt).
//
// Entry functions return 0 on success, a positive number of device-side
// launches that failed (e.g. dropped because the pending-launch pool was
// full), or a negative CUDA error code for a host-side failure. They own all
// work between "inputs on the device" and "outputs on the device" (including
// initialising the outputs), so the driver times exactly one call.
#pragma once

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define BENCH_HD __host__ __device__
#else
#define BENCH_HD
#endif

// CSR graph or square matrix on the device (all pointers are device memory).
struct GraphDev {
  int num_nodes;
  int num_edges;
  const int* row_offsets;   // num_nodes + 1
  const int* col_indices;   // num_edges, sorted within a row
  const int* weights;       // num_edges, positive integer edge weights
  const float* values;      // num_edges, matrix entries
};

struct BezierLine {
  float x[3];
  float y[3];
};

// ---- per-app constants shared by GPU variants and CPU references ----------

constexpr int kBtMaxPoints = 128;  // tessellation points per line, at most
// Points on a quadratic Bezier line: grows with its curvature (NVIDIA-sample style).
BENCH_HD inline int bt_num_points(const BezierLine& l) {
  float mx = l.x[1] - 0.5f * (l.x[0] + l.x[2]);
  float my = l.y[1] - 0.5f * (l.y[0] + l.y[2]);
  float dx = l.x[2] - l.x[0], dy = l.y[2] - l.y[0];
  float curv = sqrtf(mx * mx + my * my) / (sqrtf(dx * dx + dy * dy) + 1e-6f);
  int n = static_cast<int>(curv * 32.0f) + 4;
  return n < kBtMaxPoints ? n : kBtMaxPoints;
}

// Mandelbrot region and escape-time dwell of pixel (px, py).
constexpr float kMsX0 = -1.5f, kMsX1 = 0.5f, kMsY0 = -1.0f, kMsY1 = 1.0f;
BENCH_HD inline int ms_pixel_dwell(int w, int h, int max_dwell, int px, int py) {
  float cr = kMsX0 + (kMsX1 - kMsX0) * (static_cast<float>(px) / static_cast<float>(w));
  float ci = kMsY0 + (kMsY1 - kMsY0) * (static_cast<float>(py) / static_cast<float>(h));
  float zr = cr, zi = ci;
  int d = 0;
  while (d < max_dwell && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++d;
  }
  return d;
}

// Jones–Plassmann priority of a vertex (ties broken by vertex id).
BENCH_HD inline unsigned gc_priority(int v) {
  unsigned x = static_cast<unsigned>(v) * 0x9e3779b1u;
  x ^= x >> 15;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  return x;
}
BENCH_HD inline bool gc_beats(int u, int v) {  // does u have precedence over v?
  unsigned pu = gc_priority(u), pv = gc_priority(v);
  return pu > pv || (pu == pv && u > v);
}

// Quadtree leaf key: a leading 1 bit followed by two bits per level (quadrant path).
BENCH_HD inline int qt_quadrant(float x, float y, float mid_x, float mid_y) {
  return (x >= mid_x ? 1 : 0) | (y >= mid_y ? 2 : 0);
}

// Survey propagation (sp) on a k-SAT formula: surveys and biases in 16-bit
// fixed point, multiplied and summed in one order everywhere, so that every
// variant and the CPU compute the same bits.
struct SatDev {
  int num_vars, num_clauses, num_literals;
  const int* clause_start;  // num_clauses + 1
  const int* lit_var;       // per literal: its variable
  const int* lit_sign;      // per literal: 1 positive, 0 negated
  const int* lit_clause;    // per literal: its clause
  const int* var_start;     // num_vars + 1: each variable's occurrences
  const int* occ_literal;   // per occurrence: the literal
};
constexpr unsigned kSpOne = 1u << 16;
constexpr int kSpRounds = 16;
BENCH_HD inline unsigned sp_times(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 16);
}
// How strongly a variable (biases pos toward true, neg toward false) leans
// against a literal of this sign: a clause's survey to one of its variables
// is the product of this over its other free literals.
BENCH_HD inline unsigned sp_against(int sign, unsigned pos, unsigned neg) { return sign ? neg : pos; }
// A variable's bias toward one value from the surveys that push it there and
// to the other value.
BENCH_HD inline unsigned sp_bias(unsigned toward, unsigned other) {
  return static_cast<unsigned>(static_cast<unsigned long long>(toward) * kSpOne /
                               (static_cast<unsigned long long>(toward) + other + kSpOne));
}
// Decimation: round r fixes the free variables whose two biases differ by more.
BENCH_HD inline int sp_threshold(int round) {
  return static_cast<int>(kSpOne / 2) * (kSpRounds - 1 - round) / kSpRounds;
}

// ---- entry functions, one per app ------------------------------------------

// BFS from `source`; d_levels[v] = hop distance, -1 if unreachable.
int bfs_run(const GraphDev& g, int source, int* d_levels);
// SSSP from `source` with g.weights; d_dist[v] = distance, INT_MAX if unreachable.
int sssp_run(const GraphDev& g, int source, int* d_dist);
// y = A x for the CSR matrix a (values in a.values).
int spmv_run(const GraphDev& a, const float* d_x, float* d_y);
// Number of triangles of the undirected graph g.
int tc_run(const GraphDev& g, unsigned long long* d_count);
// Jones–Plassmann colouring: d_colors[v] = round in which v was coloured.
int gc_run(const GraphDev& g, int* d_colors);
// Tessellates each line into bt_num_points points; d_num_points[i] and
// d_line_sums[i] = sum over the line's points of (x + y).
int bt_run(const BezierLine* d_lines, int num_lines, int* d_num_points, float* d_line_sums);
// Mariani–Silver Mandelbrot: d_dwells[py * width + px].
int ms_run(int width, int height, int max_dwell, int* d_dwells);
// Quadtree over points in [0,1)^2: a node splits while it holds more than
// min_points and its depth < max_depth; d_leaf_keys[i] = key of point i's leaf.
int qt_run(const float* d_x, const float* d_y, int num_points, int max_depth, int min_points,
           unsigned long long* d_leaf_keys);

// kSpRounds rounds of surveys, biases and decimation: d_value[v] = -1 (free),
// 0 or 1 (fixed); d_satisfied[c] = 1 when a fixed variable satisfies clause c.
int sp_run(const SatDev& f, int* d_value, int* d_satisfied);

// ---- promotion benchmarks: one block per step, a carry passed to the next ----
constexpr int kScBlock = 256;   // elements per step of stream compaction
constexpr int kLosBlock = 256;  // points per step of line of sight
// Stream compaction keeps the elements that are not multiples of 3.
BENCH_HD inline bool sc_keep(int x) { return x % 3 != 0; }
// Line of sight from point 0: the elevation angle's tangent of point i (> 0).
BENCH_HD inline float los_slope(int h0, int hi, int i) {
  return static_cast<float>(hi - h0) / static_cast<float>(i);
}

// Stream compaction: d_out[0..*d_count) = the kept elements of d_in, in order.
int sc_run(const int* d_in, int n, int* d_out, int* d_count);
// Line of sight: d_visible[i] = 1 when point i (i >= 1) sees point 0 over every
// point between them (its slope at least the largest before it), else 0; d_visible[0] = 1.
int los_run(const int* d_heights, int n, int* d_visible);

constexpr int kPtBlock = 256;   // elements per step of partition
constexpr int kUnqBlock = 256;  // elements per step of unique
// Padding and unpadding move one row of kPdCols elements per step, in place,
// between a row stride of kPdCols and kPdCols + kPdPad.
constexpr int kPdCols = 1000;
constexpr int kPdPad = 24;
// Partition's predicate: even elements go to the front.
BENCH_HD inline bool pt_front(int x) { return (x & 1) == 0; }

// Partition: the elements with pt_front first, in order, at d_out[0..*d_count);
// the others after them in reverse order (d_out[n - 1] is the first of them).
int pt_run(const int* d_in, int n, int* d_out, int* d_count);
// Unique: d_out[0..*d_count) = d_in without the elements equal to the one before.
int unq_run(const int* d_in, int n, int* d_out, int* d_count);
// Padding in place: rows of kPdCols elements at stride kPdCols move to stride
// kPdCols + kPdPad (d_matrix holds rows * (kPdCols + kPdPad) elements); the
// padding elements are left as they were.
int pd_run(int* d_matrix, int rows);
// Unpadding in place: the reverse, from stride kPdCols + kPdPad to kPdCols.
int upd_run(int* d_matrix, int rows);
