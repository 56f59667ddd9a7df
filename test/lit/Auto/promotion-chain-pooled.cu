// A single-block kernel whose thread 0 relaunches it for the next step: the
// model prices it per level of the chain, and promotion with overlap and a
// pool of 1,024 successors wins (measured fastest at 1,000 and 10,000 levels;
// unpooled P and PO pay a device launch per level and, like the chain as
// written, fail past the pending-launch pool). The output compiles.
// RUN: %launchopt --auto %s --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s < %t.report
// RUN: %FileCheck %s --check-prefix=OUT < %t.cu
// RUN: %nvcc-compile %t.cu
// CHECK: ('step' -> 'step'): auto: applied
// CHECK:   choice: P:PAO:1024 (
// CHECK:   model: pool: 1024 successor(s) per launch, 1 launch(es) over 1000 levels; a level of the chain: 256 threads x 1 launches:
// CHECK:   passes: --promote=PAO:1024
// CHECK:   rejected: as written: {{.*}}; P: {{.*}}; P:PO: {{.*}}; P:PA:32: {{.*}}; P:PAO:32: {{.*}}; P:PA:1024: {{.*}}
// CHECK: promote: applied
// CHECK:   mode: PAO
// OUT: #define LAUNCHOPT_PROMOTE_POOL 1024u
#include <cuda_runtime.h>

__global__ void step(const int *in, int *out, int n, int s, int carry) {
  __shared__ int sum[256];
  const int i = s * 256 + threadIdx.x;
  sum[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int d = 1; d < 256; d *= 2) {
    int add = threadIdx.x >= d ? sum[threadIdx.x - d] : 0;
    __syncthreads();
    sum[threadIdx.x] += add;
    __syncthreads();
  }
  if (i < n)
    out[i] = carry + sum[threadIdx.x];
  const int next = carry + sum[255];
  if (threadIdx.x == 0 && (s + 1) * 256 < n)
    step<<<1, 256>>>(in, out, n, s + 1, next);
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 1 << 16);
  cudaMalloc(&out, 1 << 16);
  step<<<1, 256>>>(in, out, 1 << 14, 0, 0);
  cudaDeviceSynchronize();
  return 0;
}
