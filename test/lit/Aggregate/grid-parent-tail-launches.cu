// A parent that tail-launches a consumer of what its children write: the grid
// granularity's aggregated launch goes into fire-and-forget, so the consumer
// still runs after the children (tail launches run in enqueue order, and the
// last block's would come after the consumer's). Found by launchopt-dpgen on
// the H100: a tail-launched collector read and freed a buffer before the
// aggregated children wrote it (wrong checksums in 191 of 500 programs).
// A parent without a tail launch keeps the cheaper tail launch.
// RUN: %launchopt --aggregate=grid %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

__global__ void fill(int *buf, int value) { buf[blockIdx.x * blockDim.x + threadIdx.x] = value; }

__global__ void collect(int *out, const int *buf, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(out, buf[i]);
}

__global__ void producer(int *out, int *buf) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  fill<<<1, 32>>>(buf + i * 32, i);
  if (i == 0)
    collect<<<1, 32, 0, cudaStreamTailLaunch>>>(out, buf, 32 * blockDim.x * gridDim.x);
}

__global__ void alone(int *buf) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  fill<<<1, 32>>>(buf + i * 32, i);
}

// CHECK-LABEL: __global__ void producer(int *out, int *buf)
// CHECK: launchopt::lastBlockOfScope(
// CHECK-NEXT: __lo_launch_fill({{.*}}, cudaStreamFireAndForget, false);
// CHECK-LABEL: __global__ void alone(int *buf)
// CHECK: launchopt::lastBlockOfScope(
// CHECK-NEXT: __lo_launch_fill({{.*}}, cudaStreamTailLaunch, false);
