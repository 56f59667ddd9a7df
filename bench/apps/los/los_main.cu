// Line of sight driver: --steps S gives n = S * kLosBlock - 5 points (the last
// step partial), so the CDP version's chain is S kernels deep. Heights are a
// random walk on a rising slope, so points stay visible far along the ray;
// the flags are compared exactly with the CPU (the same float division on
// both sides); "# checksum" lets runs of different variants be compared.
#include <cmath>
#include <cstdint>

#include "../../common/bench_api.h"
#include "../../common/harness.cuh"

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  const int steps = static_cast<int>(args.num("steps", 25));
  const int n = steps * kLosBlock - 5;
  std::vector<int> heights(n);
  uint64_t s = 0x2545f4914f6cdd1dull;
  int h = 1000;
  for (int i = 0; i < n; ++i) {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    h += static_cast<int>((s * 0x9e3779b97f4a7c15ull) >> 59) - 14;  // -14..17: rises on average
    heights[i] = h;
  }
  std::vector<int> expected(n, 0);
  expected[0] = 1;
  float best = -INFINITY;
  for (int i = 1; i < n; ++i) {
    float slope = los_slope(heights[0], heights[i], i);
    expected[i] = slope >= best ? 1 : 0;
    best = std::fmax(best, slope);
  }
  bench::print_device_report();
  bench::DeviceArray<int> d_heights(heights), d_visible(n);
  auto cfg = bench::config_from(args, "los", "steps" + std::to_string(steps));
  uint64_t checksum = 0;
  int rc = bench::run_bench(
      cfg,
      [&] {
        d_visible.poison();
        return los_run(d_heights.ptr, n, d_visible.ptr);
      },
      [&]() -> std::string {
        std::vector<int> got = d_visible.download();
        checksum = 1469598103934665603ull;
        for (int i = 0; i < n; ++i) {
          if (got[i] != expected[i]) return "point " + std::to_string(i) + " differs";
          checksum = (checksum ^ static_cast<uint64_t>(got[i] * (i + 1))) * 1099511628211ull;
        }
        return "";
      });
  std::printf("# checksum los steps%d %016llx\n", steps, static_cast<unsigned long long>(checksum));
  return rc;
}
