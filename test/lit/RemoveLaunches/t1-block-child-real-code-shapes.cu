// Whole-block children as real code writes them. The block is a plain local
// that nothing writes again (`int threads = 256;`, `dim3 block(128);`), which
// counts as the constant it holds, on the device and on the host. A child
// written with cooperative groups reads lane registers in inline assembly:
// a block of the persistent grid runs each child block with the same
// threads, so T1 takes it; T3 and T4 run child threads elsewhere and say
// which function holds the assembly.
// RUN: %launchopt --remove-launches=T1 %s -o %t1.cu --report %t1.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=T1 < %t1.txt
// RUN: %nvcc-compile %t1.cu
// RUN: %launchopt --remove-launches=T3 %s -o %t3.cu --report %t3.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=T3 < %t3.txt
// A local written after its initialisation is no constant.
// RUN: sed -e 's/int n = sizes\[row\];/int n = sizes[row]; if (n > 4096) threads = 512;/' %s > %t.written.cu
// RUN: %launchopt --remove-launches=T1 %t.written.cu -o %t.w.cu --report %t.w.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=WRITTEN < %t.w.txt
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(out, partial[0]);
}

__global__ void sumRows(const float *in, float *out, const int *sizes, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  int threads = 256;
  int n = sizes[row];
  int blocks = (n + threads - 1) / threads;
  if (n > 0)
    blockSum<<<blocks, threads>>>(in + row * 4096, out + row, n);
}

__global__ void rowMax(const int *row, int n, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int best = -1;
  for (int i = block.thread_rank(); i < n; i += block.size())
    best = max(best, row[i]);
  for (int offset = 16; offset > 0; offset /= 2)
    best = max(best, tile.shfl_down(best, offset));
  if (tile.thread_rank() == 0)
    atomicMax(out, best);
}

__global__ void maxOfRows(const int *values, const int *lengths, int *out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  dim3 block(128);
  if (r < rows && lengths[r] > 0)
    rowMax<<<1, block>>>(values + r * 1024, lengths[r], out + r);
}

void run(const float *in, float *out, const int *sizes, const int *values, const int *lengths,
         int *maxima) {
  int threads = 256;
  sumRows<<<1, threads>>>(in, out, sizes, 64);
  dim3 block(128);
  maxOfRows<<<4, block>>>(values, lengths, maxima, 512);
}

// T1: launch #1 at {{.*}}('sumRows' -> 'blockSum'): remove-launches: applied
// T1: version: T1 (CB* -> PB*)
// T1: launch #2 at {{.*}}('maxOfRows' -> 'rowMax'): remove-launches: applied
// T1: version: T1 (CB* -> PB*)

// T3: ('maxOfRows' -> 'rowMax'): remove-launches: not applied: child uses cooperative groups, whose 'cooperative_groups::{{.*}}laneid' reads the GPU's registers in inline assembly

// WRITTEN: ('sumRows' -> 'blockSum'): remove-launches: not applied: {{.*}}not a constant
