// Measures the spawn controller's constants (runtime/include/launchopt/spawn.cuh)
// on the GPU at hand and prints them in the form of the GPU description
// lib/Transforms/Fusion/gpus/h100.launch-control.json (run.sh also writes
// them as -D flags):
//   LAUNCHOPT_SPAWN_LAUNCH_NS        one device thread issuing a launch (ns per launch)
//   LAUNCHOPT_SPAWN_GRID_LIMIT       child grids seen running at once
//   LAUNCHOPT_SPAWN_SMS, LAUNCHOPT_SPAWN_CTA_SLOTS_PER_SM  from the device's properties
//   LAUNCHOPT_RUNTIME_PENDING_POOL   cudaLimitDevRuntimePendingLaunchCount (the runtime reads it;
//                                    this is its value when it cannot)
// Build: nvcc -arch=sm_90 -rdc=true -O3 spawn_probe.cu -lcudadevrt
#include <cstdio>
#include <cuda_runtime.h>

__device__ unsigned long long probeNow() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void emptyChild() {}

// One thread issues `launches` launches; the time per launch is the issue cost.
__global__ void issueLaunches(int launches, unsigned long long *ns) {
  unsigned long long start = probeNow();
  for (int i = 0; i < launches; ++i)
    emptyChild<<<1, 32, 0, cudaStreamFireAndForget>>>();
  *ns = probeNow() - start;
}

__device__ unsigned running, maxRunning;
__device__ volatile int release;

// Each grid's block counts itself running, waits (bounded) for the release or
// for a while, and leaves.
__global__ void heldChild() {
  unsigned now = atomicAdd(&running, 1u) + 1;
  atomicMax(&maxRunning, now);
  unsigned long long until = probeNow() + 20000000ull; // 20 ms at most
  while (!release && probeNow() < until) {
  }
  atomicSub(&running, 1u);
}

// Launches `grids` one-block grids at once; the largest number running
// together is the concurrent-grid limit (when grids exceeds it).
__global__ void launchHeld(int grids) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < grids)
    heldChild<<<1, 1, 0, cudaStreamFireAndForget>>>();
}

static int check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "spawn_probe: %s: %s\n", what, cudaGetErrorString(e));
    return 1;
  }
  return 0;
}

int main() {
  cudaDeviceProp p;
  if (check(cudaGetDeviceProperties(&p, 0), "device properties"))
    return 1;
  size_t pool = 0;
  if (check(cudaDeviceGetLimit(&pool, cudaLimitDevRuntimePendingLaunchCount), "pending limit"))
    return 1;
  int slots = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&slots, heldChild, 32, 0), "occupancy");

  unsigned long long *ns;
  cudaMalloc(&ns, sizeof *ns);
  const int launches = 1000;
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    issueLaunches<<<1, 1>>>(launches, ns);
    if (check(cudaDeviceSynchronize(), "launch cost"))
      return 1;
    unsigned long long t = 0;
    cudaMemcpy(&t, ns, sizeof t, cudaMemcpyDeviceToHost);
    if (double(t) / launches < best)
      best = double(t) / launches;
  }

  const int grids = 1024;
  unsigned zero = 0;
  cudaMemcpyToSymbol(running, &zero, sizeof zero);
  cudaMemcpyToSymbol(maxRunning, &zero, sizeof zero);
  launchHeld<<<grids / 256, 256>>>(grids);
  if (check(cudaDeviceSynchronize(), "concurrent grids"))
    return 1;
  unsigned seen = 0;
  cudaMemcpyFromSymbol(&seen, maxRunning, sizeof seen);

  // The form of lib/Transforms/Fusion/gpus/h100.launch-control.json; the
  // chosen (unmeasured) entries are printed as the runtime's defaults.
  int ctaSlots = slots < p.maxBlocksPerMultiProcessor ? slots : p.maxBlocksPerMultiProcessor;
  std::printf("{\n  \"name\": \"%s (sm_%d%d)\",\n", p.name, p.major, p.minor);
  auto entry = [](const char *key, double value, const char *flag, const char *source,
                  bool last = false) {
    std::printf("  \"%s\": {\"value\": %.0f, \"flag\": \"%s\", \"source\": \"%s\"}%s\n", key,
                value, flag, source, last ? "" : ",");
  };
  entry("spawn_launch_ns", best, "LAUNCHOPT_SPAWN_LAUNCH_NS",
        "bench/spawn_probe: one device thread issuing 1000 launches, best of 5");
  entry("spawn_grid_limit", seen, "LAUNCHOPT_SPAWN_GRID_LIMIT",
        "bench/spawn_probe: most one-block child grids seen running at once of 1024");
  entry("spawn_sms", p.multiProcessorCount, "LAUNCHOPT_SPAWN_SMS",
        "cudaDeviceProp::multiProcessorCount");
  entry("spawn_cta_slots_per_sm", ctaSlots, "LAUNCHOPT_SPAWN_CTA_SLOTS_PER_SM",
        "occupancy of a 32-thread child, capped by maxBlocksPerMultiProcessor");
  entry("pending_pool", double(pool), "LAUNCHOPT_RUNTIME_PENDING_POOL",
        "cudaDeviceGetLimit(cudaLimitDevRuntimePendingLaunchCount)");
  entry("pending_reserve", 512, "LAUNCHOPT_PENDING_RESERVE",
        "chosen, not measured: pool entries only deferral drains may take");
  entry("spawn_max_queue", 65536, "LAUNCHOPT_SPAWN_MAX_QUEUE",
        "chosen, not measured: child CTAs in flight the controller admits");
  entry("spawn_pool_per_block_grid", 16, "LAUNCHOPT_SPAWN_POOL_PER_BLOCK_GRID",
        "chosen: pool entries per grid in flight of a child that cannot run in the parent thread",
        true);
  std::printf("}\n");
  cudaFree(ns);
  return 0;
}
