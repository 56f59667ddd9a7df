// Spawn runs after thresholding and before coarsening and aggregation
// (Passes.def): thresholding's launch is controlled, the spawned copy is
// coarsened, and its launch aggregated; the result compiles.
// RUN: %launchopt --aggregate=block --coarsen --spawn --threshold %s -o %t.cu --report=%t.report
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %FileCheck %s < %t.cu
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --spawn --coarsen --aggregate=block %s -o %t.sca.cu --quiet
// RUN: %nvcc-compile %t.sca.cu

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

__global__ void parent(int *d, const int *sizes) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  child<<<(n + 63) / 64, 64>>>(d, n);
}

// REPORT: threshold: applied
// REPORT: spawn: applied
// REPORT: coarsen: applied
// REPORT: aggregate: applied
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK: launchopt::spawn::admit(
// CHECK: __global__ void __lo_coarse___lo_spawned_child(
