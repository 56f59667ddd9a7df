// Partition driver: --steps S gives n = S * kPtBlock - 17 elements (the last
// step partial), so the CDP version's chain is S kernels deep. The output and
// count are compared exactly with the CPU; "# checksum" lets runs of different
// variants be compared with each other.
#include <cstdint>

#include "../../common/bench_api.h"
#include "../../common/harness.cuh"

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  const int steps = static_cast<int>(args.num("steps", 25));
  const int n = steps * kPtBlock - 17;
  std::vector<int> in(n);
  uint64_t s = 0x243f6a8885a308d3ull;
  for (int& x : in) {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    x = static_cast<int>((s * 0x2545f4914f6cdd1dull) >> 40);
  }
  std::vector<int> expected(n);
  int fronts = 0, backs = 0;
  for (int x : in) {
    if (pt_front(x))
      expected[fronts++] = x;
    else
      expected[n - 1 - backs++] = x;
  }
  bench::print_device_report();
  bench::DeviceArray<int> d_in(in), d_out(n), d_count(1);
  auto cfg = bench::config_from(args, "pt", "steps" + std::to_string(steps));
  uint64_t checksum = 0;
  int rc = bench::run_bench(
      cfg,
      [&] {
        d_out.poison();
        d_count.poison();
        return pt_run(d_in.ptr, n, d_out.ptr, d_count.ptr);
      },
      [&]() -> std::string {
        std::vector<int> count = d_count.download(), got = d_out.download();
        if (count[0] != fronts)
          return "count " + std::to_string(count[0]) + ", expected " + std::to_string(fronts);
        checksum = 1469598103934665603ull;
        for (int i = 0; i < n; ++i) {
          if (got[i] != expected[i]) return "element " + std::to_string(i) + " differs";
          checksum = (checksum ^ static_cast<uint32_t>(got[i])) * 1099511628211ull;
        }
        return "";
      });
  std::printf("# checksum pt steps%d %016llx\n", steps, static_cast<unsigned long long>(checksum));
  return rc;
}
