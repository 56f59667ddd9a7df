// Bezier tessellation driver: random quadratic lines; per-line point counts
// must match the CPU exactly and per-line point sums to float rounding.
#include <cmath>

#include "../../common/harness.cuh"
#include "../../common/reference.h"

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  const int n = static_cast<int>(args.num("lines", 25600));
  std::vector<BezierLine> lines = bench::make_bezier_lines(n, 99);
  std::vector<int> expected_n;
  std::vector<double> expected_sum;
  bench::ref_bt(lines, expected_n, expected_sum);
  bench::print_device_report();
  bench::DeviceArray<BezierLine> dl(lines);
  bench::DeviceArray<int> dn(n);
  bench::DeviceArray<float> ds(n);
  auto cfg = bench::config_from(args, "bt", "");
  cfg.dataset = "lines" + std::to_string(n);
  return bench::run_bench(
      cfg,
      [&] {
        dn.poison();
        ds.poison();
        return bt_run(dl.ptr, n, dn.ptr, ds.ptr);
      },
      [&]() -> std::string {
        std::vector<int> got_n = dn.download();
        std::vector<float> got_s = ds.download();
        int off_by_rounding = 0;  // a curvature exactly at a step may round differently on the GPU
        for (int i = 0; i < n; ++i) {
          if (got_n[i] != expected_n[i]) {
            if (std::abs(got_n[i] - expected_n[i]) > 1 || ++off_by_rounding > n / 10000 + 1)
              return "line " + std::to_string(i) + " has " + std::to_string(got_n[i]) + " points, expected " +
                     std::to_string(expected_n[i]);
            continue;
          }
          if (!(std::fabs(got_s[i] - expected_sum[i]) <= 1e-4 * (std::fabs(expected_sum[i]) + expected_n[i])))
            return "line " + std::to_string(i) + " sum " + std::to_string(got_s[i]) + ", expected " +
                   std::to_string(expected_sum[i]);
        }
        return "";
      });
}
