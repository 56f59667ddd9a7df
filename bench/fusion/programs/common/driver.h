// Driver helpers shared by the fusion corpus (bench/fusion/programs): the
// programs' main functions stay in their own files (launchopt fuse works on
// main), these helpers only parse the command line, fill inputs from a seed,
// time steps with CUDA events and check results.
//
// Every program takes: prog [size steps seed out.bin [reference.bin]]
//   size 0 or absent: the program's default; out.bin: the program's outputs
//   after the steps; reference.bin: outputs of another build (the original)
//   to compare with. It prints one line per device array ("array NAME
//   ELEMENTS ELEMENT_BYTES"), "cpu check:" and "compare:" lines, and one
//   machine-readable "RESULT ..." line.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));    \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

struct RunArgs {
  long size = 0;
  int steps = 0;
  unsigned long long seed = 1;
  const char *out = nullptr;
  const char *reference = nullptr;
  std::string binary;
};

static RunArgs parse_args(int argc, char **argv, long default_size, int default_steps) {
  RunArgs a;
  const char *slash = strrchr(argv[0], '/');
  a.binary = slash ? slash + 1 : argv[0];
  if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    printf("usage: %s [size steps seed out.bin [reference.bin]]\n", argv[0]);
    exit(0);
  }
  a.size = argc > 1 ? atol(argv[1]) : 0;
  a.steps = argc > 2 ? atoi(argv[2]) : 0;
  a.seed = argc > 3 ? strtoull(argv[3], nullptr, 10) : 1;
  a.out = argc > 4 ? argv[4] : nullptr;
  a.reference = argc > 5 ? argv[5] : nullptr;
  if (a.size <= 0)
    a.size = default_size;
  if (a.steps <= 0)
    a.steps = default_steps;
  return a;
}

// Knuth's MMIX LCG: the same stream on every host, unlike <random>'s distributions.
static unsigned long long lcg(unsigned long long &s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return s >> 33;
}

static float uniform(unsigned long long &s, float lo, float hi) {
  return lo + (hi - lo) * ((lcg(s) & 0xffffff) / float(0xffffff));
}

static void fill_uniform(std::vector<float> &v, unsigned long long &s, float lo, float hi) {
  for (float &x : v)
    x = uniform(s, lo, hi);
}

static void describe_array(const char *name, size_t elements, size_t element_bytes) {
  printf("array %s %zu %zu\n", name, elements, element_bytes);
}

// One pair of events per step; the median says how long a step takes without
// the host work between steps.
struct StepTimer {
  std::vector<cudaEvent_t> start, stop;
  explicit StepTimer(int steps) : start(steps), stop(steps) {
    for (int s = 0; s < steps; ++s) {
      CHECK(cudaEventCreate(&start[s]));
      CHECK(cudaEventCreate(&stop[s]));
    }
  }
  void begin(int s) { CHECK(cudaEventRecord(start[s])); }
  void end(int s) { CHECK(cudaEventRecord(stop[s])); }
  // Mean time per step over all steps, from the first step's start to the
  // last one's end: what a step costs when several steps share a launch
  // (temporal fusion launches once per group, so single steps are empty).
  float mean_over_span() {
    CHECK(cudaDeviceSynchronize());
    float m;
    CHECK(cudaEventElapsedTime(&m, start.front(), stop.back()));
    return m / start.size();
  }
  // Median and minimum over the steps after the first `warmup`.
  void summary(int warmup, float &median, float &minimum) {
    CHECK(cudaDeviceSynchronize());
    std::vector<float> ms;
    for (size_t s = std::min<size_t>(warmup, start.size() - 1); s < start.size(); ++s) {
      float m;
      CHECK(cudaEventElapsedTime(&m, start[s], stop[s]));
      ms.push_back(m);
    }
    std::sort(ms.begin(), ms.end());
    median = ms[ms.size() / 2];
    minimum = ms[0];
  }
};

// Largest difference |x - y| / max(|y|, floor) over two equally long vectors;
// a NaN on either side counts as an infinite difference.
static double max_relative_difference(const std::vector<float> &x, const std::vector<float> &y,
                                      double floor, size_t &over, double tolerance) {
  double worst = 0;
  over = 0;
  for (size_t k = 0; k < x.size(); ++k) {
    double d = std::fabs(double(x[k]) - y[k]) / std::max(floor, std::fabs(double(y[k])));
    if (!(d <= tolerance))
      ++over;
    if (!(d <= worst))
      worst = std::isnan(d) ? INFINITY : d;
  }
  return worst;
}

struct CheckResult {
  bool cpu_pass = false;
  double cpu_worst = 0;
  const char *reference = "none";
  double reference_worst = 0;
  bool bitwise = false;
};

// The GPU result against the CPU reference, written to out.bin, and compared
// with reference.bin when given (relative tolerance; bitwise equality reported).
static CheckResult check_outputs(const RunArgs &a, const std::vector<float> &gpu,
                                 const std::vector<float> &cpu, double tolerance, double floor,
                                 double reference_tolerance) {
  CheckResult r;
  size_t over;
  r.cpu_worst = max_relative_difference(gpu, cpu, floor, over, tolerance);
  r.cpu_pass = over == 0;
  printf("cpu check: %zu of %zu values beyond relative %.0e (floor %.0e), max %.3g: %s\n", over,
         gpu.size(), tolerance, floor, r.cpu_worst, r.cpu_pass ? "PASS" : "FAIL");
  if (a.out) {
    FILE *f = fopen(a.out, "wb");
    if (!f || fwrite(gpu.data(), sizeof(float), gpu.size(), f) != gpu.size()) {
      fprintf(stderr, "cannot write %s\n", a.out);
      exit(1);
    }
    fclose(f);
  }
  if (a.reference) {
    std::vector<float> ref(gpu.size());
    FILE *f = fopen(a.reference, "rb");
    size_t got = f ? fread(ref.data(), sizeof(float), ref.size(), f) : 0;
    if (f)
      fclose(f);
    if (got != ref.size()) {
      fprintf(stderr, "cannot read reference %s\n", a.reference);
      exit(1);
    }
    r.bitwise = memcmp(ref.data(), gpu.data(), gpu.size() * sizeof(float)) == 0;
    r.reference_worst = max_relative_difference(gpu, ref, floor, over, reference_tolerance);
    r.reference = over == 0 ? "PASS" : "FAIL";
    printf("compare: %zu of %zu values beyond relative %.0e of the reference, max %.3g, %s: %s\n",
           over, gpu.size(), reference_tolerance, r.reference_worst,
           r.bitwise ? "bitwise equal" : "not bitwise equal", r.reference);
  }
  return r;
}

static int report_result(const char *program, const RunArgs &a, const std::string &size,
                         const CheckResult &r, float median, float minimum) {
  printf("RESULT program=%s binary=%s size=%s steps=%d seed=%llu step_ms=%.4f step_min_ms=%.4f "
         "cpu=%s cpu_max_rel=%.3g reference=%s reference_max_rel=%.3g bitwise=%s\n",
         program, a.binary.c_str(), size.c_str(), a.steps, a.seed, median, minimum,
         r.cpu_pass ? "PASS" : "FAIL", r.cpu_worst, r.reference, r.reference_worst,
         a.reference ? (r.bitwise ? "yes" : "no") : "-");
  return !r.cpu_pass || !strcmp(r.reference, "FAIL");
}
