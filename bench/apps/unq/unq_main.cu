// Unique driver: --steps S gives n = S * kUnqBlock - 17 elements (the
// last step partial), so the CDP version's chain is S kernels deep. The output
// and count are compared exactly with the CPU; "# checksum" lets runs of
// different variants be compared with each other.
#include <cstdint>

#include "../../common/bench_api.h"
#include "../../common/harness.cuh"

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  const int steps = static_cast<int>(args.num("steps", 25));
  const int n = steps * kUnqBlock - 17;
  std::vector<int> in(n);
  // Runs of equal elements of length 1 to 4, so about half are dropped.
  uint64_t s = 0x13198a2e03707344ull;
  int value = 0;
  for (int i = 0; i < n;) {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    const uint64_t r = s * 0x2545f4914f6cdd1dull;
    value += 1 + static_cast<int>((r >> 40) % 7);
    for (int k = 0; k <= static_cast<int>((r >> 20) % 4) && i < n; ++k) in[i++] = value;
  }
  std::vector<int> expected;
  for (int i = 0; i < n; ++i)
    if (i == 0 || in[i] != in[i - 1]) expected.push_back(in[i]);
  bench::print_device_report();
  bench::DeviceArray<int> d_in(in), d_out(n), d_count(1);
  auto cfg = bench::config_from(args, "unq", "steps" + std::to_string(steps));
  uint64_t checksum = 0;
  int rc = bench::run_bench(
      cfg,
      [&] {
        d_out.poison();
        d_count.poison();
        return unq_run(d_in.ptr, n, d_out.ptr, d_count.ptr);
      },
      [&]() -> std::string {
        std::vector<int> count = d_count.download(), got = d_out.download();
        if (count[0] != static_cast<int>(expected.size()))
          return "count " + std::to_string(count[0]) + ", expected " + std::to_string(expected.size());
        checksum = 1469598103934665603ull;
        for (size_t i = 0; i < expected.size(); ++i) {
          if (got[i] != expected[i]) return "element " + std::to_string(i) + " differs";
          checksum = (checksum ^ static_cast<uint32_t>(got[i])) * 1099511628211ull;
        }
        return "";
      });
  std::printf("# checksum unq steps%d %016llx\n", steps, static_cast<unsigned long long>(checksum));
  return rc;
}
