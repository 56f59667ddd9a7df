// A launch in a __device__ helper that one thread may run more than once, or
// after its caller launched, may follow children of other calls into the
// same stream; a kernel that calls such a helper has launches the helper's
// may follow or precede. No pairing of one function's sites shows those
// orders: thresholding, spawn, aggregation and launch removal leave the
// launches in ordered streams, with the reason. A helper called once by a
// kernel that launches nothing else, a fire-and-forget launch, and a launch in
// the other branch of an `if` than the call are taken, and so is a helper
// that two kernels call once each (no thread runs both kernels' bodies).
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.threshold
// RUN: %FileCheck %s --check-prefix=T < %t.threshold
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --spawn %s -o %t.spawn.cu 2> %t.spawn
// RUN: %FileCheck %s --check-prefix=S < %t.spawn
// RUN: %launchopt --remove-launches %s -o %t.removed.cu 2> %t.removed
// RUN: %FileCheck %s --check-prefix=R < %t.removed
// RUN: %launchopt --aggregate=block %s -o %t.aggregated.cu 2> %t.aggregated
// RUN: %FileCheck %s --check-prefix=A < %t.aggregated
// RUN: %launchopt --threshold --assume-independent-children %s -o %t.assumed.cu 2> %t.assumed
// RUN: %FileCheck %s --check-prefix=ASSUMED < %t.assumed
// RUN: %launchopt --list-launches %s | %FileCheck %s --check-prefix=LIST
// RUN: %launchopt --list-launches --format=json %s | %FileCheck %s --check-prefix=JSON
// LIST: launch #1 at {{.*}}helper-launch-order.cu:{{[0-9]+}}:3: device-side, 'fillRange' launches 'fill'
// LIST: order with other calls: the launch is in __device__ function 'fillRange', and it is called at 2 places in 'twice'
// JSON: "orderWithOtherCalls": {
// JSON-NEXT: "followedByTheirLaunches": false,
// JSON-NEXT: "followsTheirLaunches": true,
// JSON-NEXT: "why": "the launch is in __device__ function 'fillRange', and it is called at 2 places in 'twice'
#include <cuda_runtime.h>

__global__ void fill(int *a, int lo, int hi) {
  int i = lo + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < hi)
    a[i] += i;
}

__device__ void fillRange(int *a, int lo, int hi) {
  fill<<<(hi - lo + 63) / 64, 64>>>(a, lo, hi);
}
// T: helper-launch-order.cu:[[@LINE-2]]:3: remark: not thresholded: {{.*}}not proved independent: the launch is in __device__ function 'fillRange', and it is called at 2 places in 'twice': launches of other calls may come before it into the same stream; and the flag that keeps the stream's order does not reach launches of other calls
// S: helper-launch-order.cu:[[@LINE-3]]:3: remark: not spawn-controlled: {{.*}}'fillRange', and it is called at 2 places in 'twice'
// R: helper-launch-order.cu:[[@LINE-4]]:3: remark: not removed: the launch is in __device__ function 'fillRange', and it is called at 2 places in 'twice': launches of other calls may come before it into the same stream: a removed child could run before them
// ASSUMED: helper-launch-order.cu:[[@LINE-5]]:3: remark: threshold applied to launch of 'fill'

__global__ void twice(int *a, int n) {
  if (threadIdx.x == 0) {
    fillRange(a, 0, n / 2);
    fillRange(a, n / 2, n);
  }
}

__device__ void fillInLoop(int *a, int n) {
  fill<<<(n + 63) / 64, 64>>>(a, 0, n);
}
// T: helper-launch-order.cu:[[@LINE-2]]:3: remark: not thresholded: {{.*}}it is called in a loop or a lambda of 'looping'

__global__ void looping(int *a, int n) {
  for (int k = 0; k < 2; ++k)
    fillInLoop(a, n);
}

__device__ void fillOnce(int *a, int lo, int hi) {
  fill<<<(hi - lo + 63) / 64, 64>>>(a, lo, hi);
}
// T: helper-launch-order.cu:[[@LINE-2]]:3: remark: threshold applied to launch of 'fill'
// R: helper-launch-order.cu:[[@LINE-3]]:3: remark: remove-launches applied to launch of 'fill'

__global__ void once(int *a, const int *sizes) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  fillOnce(a, 0, n);
}

__device__ void fillUnordered(int *a, int lo, int hi) {
  fill<<<(hi - lo + 63) / 64, 64, 0, cudaStreamFireAndForget>>>(a, lo, hi);
}
// T: helper-launch-order.cu:[[@LINE-2]]:3: remark: threshold applied to launch of 'fill'

__global__ void unordered(int *a, int n) {
  fillUnordered(a, 0, n / 2);
  fillUnordered(a, n / 2, n);
}

__device__ void afterCaller(int *a, int n) {
  fill<<<(n + 63) / 64, 64>>>(a, 0, n);
}
// T: helper-launch-order.cu:[[@LINE-2]]:3: remark: not thresholded: {{.*}}its caller 'mixed' launches kernels too

__global__ void mixed(int *a, int n) {
  fill<<<(n + 63) / 64, 64>>>(a, n, 2 * n);
  afterCaller(a, n);
}
// T: helper-launch-order.cu:[[@LINE-3]]:3: remark: not thresholded: {{.*}}'mixed' also calls 'afterCaller', which launches kernels: its launches may come before or after this one into the same stream
// A: helper-launch-order.cu:[[@LINE-4]]:3: remark: not aggregated: 'mixed' also calls 'afterCaller', which launches kernels: its launches may come before or after this one into the same stream; aggregating could reorder them

// A launch and a call in the two branches of one `if` never both run in one
// execution of the kernel (thresholding's own `if (large) launch; else run
// serially` when the child launches): the launch is taken.
__device__ void elsewhere(int *a, int n) {
  fill<<<(n + 63) / 64, 64>>>(a, 0, n);
}
// T: helper-launch-order.cu:[[@LINE-2]]:3: remark: threshold applied to launch of 'fill'

__global__ void branches(int *a, const int *sizes) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  if (n > 1024)
    fill<<<(n + 63) / 64, 64>>>(a, 0, n);
  else
    elsewhere(a, n);
}
// T: helper-launch-order.cu:[[@LINE-4]]:5: remark: threshold applied to launch of 'fill'
// A: helper-launch-order.cu:[[@LINE-5]]:5: remark: aggregate applied to launch of 'fill'

// Called once by each of two kernels: every thread runs it at most once.
__device__ void oncePerKernel(int *a, int n) {
  fill<<<(n + 63) / 64, 64>>>(a, 0, n);
}
// T: helper-launch-order.cu:[[@LINE-2]]:3: remark: threshold applied to launch of 'fill'
// R: helper-launch-order.cu:[[@LINE-3]]:3: remark: remove-launches applied to launch of 'fill'

__global__ void firstUser(int *a, const int *sizes) {
  oncePerKernel(a, sizes[threadIdx.x]);
}

__global__ void secondUser(int *a, const int *sizes) {
  if (threadIdx.x > 0)
    oncePerKernel(a + 1, sizes[threadIdx.x] - 1);
}

int main() { return 0; }
