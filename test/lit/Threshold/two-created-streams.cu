// A parent that creates two streams and launches one child into each: the
// streams are distinct, so the second launch is not ordered after the first
// and both are thresholded. A third launch into the first stream again is
// ordered after the first one and stays refused.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void left(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

__global__ void right(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2;
}

__global__ void parent(int *a, int *b, const int *sizes) {
  int n = sizes[threadIdx.x];
  cudaStream_t s, s1;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  left<<<(n + 31) / 32, 32, 0, s>>>(a, n);
  right<<<(n + 31) / 32, 32, 0, s1>>>(b, n);
  right<<<(n + 31) / 32, 32, 0, s>>>(a, n);
  cudaStreamDestroy(s);
  cudaStreamDestroy(s1);
}

// CHECK: two-created-streams.cu:26:3: remark: threshold applied to launch of 'left'
// CHECK: two-created-streams.cu:27:3: remark: threshold applied to launch of 'right'
// CHECK: two-created-streams.cu:28:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent:
