// Quadtree driver: clustered random points in [0,1)^2; every point's leaf key
// (a leading 1 bit and two bits per level: the quadrant path from the root)
// must equal the CPU reference exactly. The key does not depend on the order
// in which a node's points are partitioned, so the check is deterministic.
#include "../../common/harness.cuh"
#include "../../common/reference.h"

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  const int n = static_cast<int>(args.num("points", 40000));
  const int max_depth = static_cast<int>(args.num("max-depth", 12));
  const int min_points = static_cast<int>(args.num("min-points", 1));
  const uint64_t seed = static_cast<uint64_t>(args.num("seed", 7));
  std::vector<float> x, y;
  bench::make_clustered_points(n, seed, x, y);
  std::vector<uint64_t> expected = bench::ref_qt(x, y, max_depth, min_points);
  bench::QtShape shape = bench::qt_shape(expected);
  std::printf("# qt: %d points, max depth %d, min points %d: %zu leaves, %zu non-leaf nodes, deepest leaf %d\n", n,
              max_depth, min_points, shape.leaves, shape.inner, shape.depth);
  bench::print_device_report();
  bench::DeviceArray<float> dx(x), dy(y);
  bench::DeviceArray<unsigned long long> keys(n);
  auto cfg = bench::config_from(args, "qt", "");
  cfg.dataset = "pts" + std::to_string(n) + "_d" + std::to_string(max_depth) + "_m" + std::to_string(min_points);
  return bench::run_bench(
      cfg,
      [&] {
        keys.poison();
        return qt_run(dx.ptr, dy.ptr, n, max_depth, min_points, keys.ptr);
      },
      [&]() -> std::string {
        std::vector<unsigned long long> got = keys.download();
        return bench::check_qt_keys(expected, std::vector<uint64_t>(got.begin(), got.end()));
      });
}
