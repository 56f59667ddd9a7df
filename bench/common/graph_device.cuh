// A CsrGraph uploaded to the device, viewed as the GraphDev the variants take.
#pragma once

#include "bench_api.h"
#include "graph.h"
#include "harness.cuh"

namespace bench {

struct DeviceGraph {
  DeviceArray<int> row_offsets, col_indices, weights;
  DeviceArray<float> values;
  GraphDev view{};
  explicit DeviceGraph(const CsrGraph& g)
      : row_offsets(g.row_offsets), col_indices(g.col_indices), weights(g.weights), values(g.values) {
    view.num_nodes = g.num_nodes;
    view.num_edges = g.num_edges();
    view.row_offsets = row_offsets.ptr;
    view.col_indices = col_indices.ptr;
    view.weights = g.weights.empty() ? nullptr : weights.ptr;
    view.values = g.values.empty() ? nullptr : values.ptr;
  }
};

inline int max_degree_vertex(const CsrGraph& g) {
  int best = 0;
  for (int v = 1; v < g.num_nodes; ++v)
    if (g.degree(v) > g.degree(best)) best = v;
  return best;
}

inline std::string dataset_name(const std::string& path) {
  size_t s = path.find_last_of('/');
  std::string base = s == std::string::npos ? path : path.substr(s + 1);
  size_t d = base.find_last_of('.');
  return d == std::string::npos ? base : base.substr(0, d);
}

}  // namespace bench
