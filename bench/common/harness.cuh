// Timing harness shared by the per-app drivers: argument parsing, device
// report, warm-up, timed repetitions with CUDA events, verification of every
// repetition, and one CSV result line per (app, dataset, variant).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#define BENCH_CHECK(call)                                                                        \
  do {                                                                                           \
    cudaError_t err_ = (call);                                                                   \
    if (err_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: CUDA error %d (%s) in %s\n", __FILE__, __LINE__, (int)err_,   \
                   cudaGetErrorString(err_), #call);                                             \
      std::exit(3);                                                                              \
    }                                                                                            \
  } while (0)

namespace bench {

// --key value pairs; every driver accepts --app-independent keys below plus its own.
class Args {
 public:
  Args(int argc, char** argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
      std::string k = argv[i];
      if (k.rfind("--", 0) != 0) usage(argv[0]);
      values_[k.substr(2)] = argv[i + 1];
    }
    if (argc % 2 == 0) usage(argv[0]);
  }
  std::string str(const std::string& k, const std::string& def) const {
    auto it = values_.find(k);
    return it == values_.end() ? def : it->second;
  }
  long num(const std::string& k, long def) const {
    auto it = values_.find(k);
    return it == values_.end() ? def : std::strtol(it->second.c_str(), nullptr, 10);
  }
  double real(const std::string& k, double def) const {
    auto it = values_.find(k);
    return it == values_.end() ? def : std::strtod(it->second.c_str(), nullptr);
  }

 private:
  [[noreturn]] static void usage(const char* prog) {
    std::fprintf(stderr,
                 "usage: %s [--input FILE] [--dataset NAME] [--variant NAME] [--reps N] [--warmup N]\n"
                 "          [--budget SECONDS] [--min-reps N] [app options]\n",
                 prog);
    std::exit(2);
  }
  std::map<std::string, std::string> values_;
};

inline void print_device_report() {
  int dev = 0, rt = 0, drv = 0;
  cudaDeviceProp p{};
  BENCH_CHECK(cudaGetDevice(&dev));
  BENCH_CHECK(cudaGetDeviceProperties(&p, dev));
  BENCH_CHECK(cudaRuntimeGetVersion(&rt));
  BENCH_CHECK(cudaDriverGetVersion(&drv));
  std::printf("# device: %s, sm_%d%d, %d SMs, %.1f GiB; CUDA runtime %d.%d, driver API %d.%d\n", p.name, p.major,
              p.minor, p.multiProcessorCount, p.totalGlobalMem / 1073741824.0, rt / 1000, (rt % 1000) / 10,
              drv / 1000, (drv % 1000) / 10);
}

struct BenchConfig {
  std::string app, dataset, variant;
  int warmup = 1;
  int reps = 10;
  int min_reps = 3;       // a slow variant stops after min_reps once the budget is spent
  double budget_s = 20.0; // wall-clock budget for the timed repetitions
};

inline BenchConfig config_from(const Args& a, const std::string& app, const std::string& dataset) {
  BenchConfig c;
  c.app = app;
  c.dataset = a.str("dataset", dataset);
  c.variant = a.str("variant", "unnamed");
  c.warmup = static_cast<int>(a.num("warmup", 1));
  c.reps = static_cast<int>(a.num("reps", 10));
  c.min_reps = static_cast<int>(a.num("min-reps", 3));
  c.budget_s = a.real("budget", 20.0);
  return c;
}

// run(): one call of the variant's entry function, returns its status.
// verify(): compares the device output with the CPU reference; "" if correct.
// prepare(): when given, restores the input of an in-place computation before
// each call, outside the timed region.
// Prints "RESULT,app,dataset,variant,status,reps,median_ms,min_ms,max_ms,note".
inline int run_bench(const BenchConfig& c, const std::function<int()>& run,
                     const std::function<std::string()>& verify,
                     const std::function<void()>& prepare = {}) {
  auto fail = [&](const std::string& why) {
    std::printf("RESULT,%s,%s,%s,FAILED,0,,,,%s\n", c.app.c_str(), c.dataset.c_str(), c.variant.c_str(),
                why.c_str());
    std::fflush(stdout);
    return 1;
  };
  auto one = [&](float* ms) -> std::string {
    if (prepare) {
      prepare();
      BENCH_CHECK(cudaDeviceSynchronize());
    }
    cudaEvent_t start, stop;
    BENCH_CHECK(cudaEventCreate(&start));
    BENCH_CHECK(cudaEventCreate(&stop));
    BENCH_CHECK(cudaEventRecord(start));
    int status = run();
    BENCH_CHECK(cudaEventRecord(stop));
    cudaError_t err = cudaEventSynchronize(stop);
    if (err == cudaSuccess) err = cudaGetLastError();
    BENCH_CHECK(cudaEventElapsedTime(ms, start, stop));
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    if (err != cudaSuccess) return std::string("CUDA error: ") + cudaGetErrorString(err);
    if (status > 0) return std::to_string(status) + " device launches failed (pending-launch limit?)";
    if (status < 0) return std::string("host CUDA error: ") + cudaGetErrorString(static_cast<cudaError_t>(-status));
    return verify();
  };
  float ms = 0;
  for (int i = 0; i < c.warmup; ++i) {
    std::string why = one(&ms);
    if (!why.empty()) return fail("warm-up: " + why);
  }
  std::vector<float> times;
  double spent_s = 0;
  for (int i = 0; i < c.reps; ++i) {
    if (i >= c.min_reps && spent_s > c.budget_s) break;
    std::string why = one(&ms);
    if (!why.empty()) return fail("rep " + std::to_string(i) + ": " + why);
    times.push_back(ms);
    spent_s += ms / 1000.0;
  }
  std::vector<float> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  std::printf("RESULT,%s,%s,%s,OK,%zu,%.4f,%.4f,%.4f,%s\n", c.app.c_str(), c.dataset.c_str(), c.variant.c_str(), n,
              median, sorted.front(), sorted.back(), n < static_cast<size_t>(c.reps) ? "rep budget reached" : "");
  std::fflush(stdout);
  return 0;
}

// Device copies of a host vector, freed with the object.
template <typename T>
struct DeviceArray {
  T* ptr = nullptr;
  size_t size = 0;
  DeviceArray() = default;
  explicit DeviceArray(size_t n) : size(n) { BENCH_CHECK(cudaMalloc(&ptr, std::max<size_t>(n, 1) * sizeof(T))); }
  explicit DeviceArray(const std::vector<T>& h) : DeviceArray(h.size()) {
    if (!h.empty()) BENCH_CHECK(cudaMemcpy(ptr, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { cudaFree(ptr); }
  std::vector<T> download() const {
    std::vector<T> h(size);
    if (size) BENCH_CHECK(cudaMemcpy(h.data(), ptr, size * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
  // Fills with a byte pattern so that unwritten outputs are caught.
  void poison() { BENCH_CHECK(cudaMemset(ptr, 0xA5, std::max<size_t>(size, 1) * sizeof(T))); }
};

}  // namespace bench
