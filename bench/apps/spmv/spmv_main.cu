// SpMV driver: loads a matrix (.mtx, or a .gr graph whose weights become the
// entries), multiplies a fixed random vector and checks every repetition
// against a double-precision CPU product, row by row.
#include <cmath>

#include "../../common/graph_device.cuh"
#include "../../common/reference.h"

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  std::string input = args.str("input", "bench/data/bcsstk13.mtx");
  bench::CsrGraph a = bench::load_any(input);
  bench::ensure_values(a);
  std::vector<float> x = bench::make_vector(a.num_nodes, 12345);
  std::vector<double> expected = bench::ref_spmv(a, x);
  std::vector<double> scale(a.num_nodes, 0.0);  // sum |a_ij x_j|: the rounding error scale of row i
  for (int r = 0; r < a.num_nodes; ++r)
    for (int e = a.row_offsets[r]; e < a.row_offsets[r + 1]; ++e)
      scale[r] += std::fabs(static_cast<double>(a.values[e]) * x[a.col_indices[e]]);
  bench::print_device_report();
  bench::DeviceGraph da(a);
  bench::DeviceArray<float> dx(x), dy(a.num_nodes);
  auto cfg = bench::config_from(args, "spmv", bench::dataset_name(input));
  return bench::run_bench(
      cfg,
      [&] {
        dy.poison();
        return spmv_run(da.view, dx.ptr, dy.ptr);
      },
      [&]() -> std::string {
        std::vector<float> got = dy.download();
        for (int r = 0; r < a.num_nodes; ++r) {
          double err = std::fabs(got[r] - expected[r]);
          if (!(err <= 1e-4 * scale[r] + 1e-30))
            return "y[" + std::to_string(r) + "] = " + std::to_string(got[r]) + ", expected " +
                   std::to_string(expected[r]);
        }
        return "";
      });
}
