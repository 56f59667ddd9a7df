// In-place unpadding driver: --steps S gives a matrix of S rows of kPdCols
// elements, one row per step, so the CDP version's chain is S kernels deep.
// The input is restored before each run (outside the timed region); the whole
// matrix, padding included, is compared exactly with the CPU's in-place moves;
// "# checksum" lets runs of different variants be compared with each other.
#include <cstdint>
#include <cstring>

#include "../../common/bench_api.h"
#include "../../common/harness.cuh"

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  const int rows = static_cast<int>(args.num("steps", 25));
  const int steps = rows;
  std::vector<int> in(size_t(rows) * (kPdCols + kPdPad));
  uint64_t s = 0xa4093822299f31d0ull;
  for (int& x : in) {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    x = static_cast<int>((s * 0x2545f4914f6cdd1dull) >> 40);
  }
  std::vector<int> expected = in;
  for (int r = 0; r < rows; ++r)
    std::memmove(&expected[size_t(r) * kPdCols], &expected[size_t(r) * (kPdCols + kPdPad)], kPdCols * sizeof(int));
  bench::print_device_report();
  bench::DeviceArray<int> d_in(in), d_matrix(in.size());
  auto cfg = bench::config_from(args, "upd", "steps" + std::to_string(steps));
  uint64_t checksum = 0;
  int rc = bench::run_bench(
      cfg, [&] { return upd_run(d_matrix.ptr, rows); },
      [&]() -> std::string {
        std::vector<int> got = d_matrix.download();
        checksum = 1469598103934665603ull;
        for (size_t i = 0; i < expected.size(); ++i) {
          if (got[i] != expected[i]) return "element " + std::to_string(i) + " differs";
          checksum = (checksum ^ static_cast<uint32_t>(got[i])) * 1099511628211ull;
        }
        return "";
      },
      [&] {
        BENCH_CHECK(cudaMemcpy(d_matrix.ptr, d_in.ptr, in.size() * sizeof(int), cudaMemcpyDeviceToDevice));
      });
  std::printf("# checksum upd steps%d %016llx\n", steps, static_cast<unsigned long long>(checksum));
  return rc;
}
