// A child that returns early and uses a barrier is not coarsened: a thread
// that returns would start the next original block while the others wait.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[i] = 1.0f;
  __syncthreads();
  d[i] += d[n - 1 - i];
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK: not-early-return-syncthreads.cu:[[@LINE-3]]:3: remark: not coarsened: child returns early and uses __syncthreads
