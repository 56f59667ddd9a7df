// A program that sizes the pending-launch pool for one launch per parent
// thread gets a note once its launches are aggregated: the call is left as
// written. Other limits get none, and without an aggregated launch there is
// nothing to say.
// RUN: %launchopt --aggregate=grid %s -o %t.cu --report=%t.txt 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -c '^  cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 18);' %t.cu | %FileCheck %s --check-prefix=KEPT
// RUN: %launchopt --threshold %s -o %t.t.cu 2> %t.t.remarks
// RUN: not grep -q cudaDeviceSetLimit %t.t.remarks

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1.0f;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 127) / 128, 128>>>(d, n);
}

void host(float *d, const int *sizes) {
  cudaDeviceSetLimit(cudaLimitStackSize, 4096);
  cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 18);
  parent<<<4, 256>>>(d, sizes);
}

// REMARK: pending-limit-note.cu:25:3: remark: aggregate: cudaLimitDevRuntimePendingLaunchCount left as written: the aggregated code keeps far fewer launches pending than one per parent thread, and a pool sized far past them slows every device launch; size the limit to the launches that remain
// REMARK-NOT: pending-limit-note.cu:24
// REPORT: 'cudaDeviceSetLimit' at {{.*}}pending-limit-note.cu:25:3 ('host'): aggregate: note: cudaLimitDevRuntimePendingLaunchCount left as written
// KEPT: 1
