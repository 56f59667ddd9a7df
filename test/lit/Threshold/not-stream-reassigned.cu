// A created stream that the parent later assigns from another one may be the
// same stream: the launch into it after one into the other stays refused.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

__global__ void parent(int *a, const int *sizes) {
  int n = sizes[threadIdx.x];
  cudaStream_t s, s1;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  s1 = s;
  child<<<(n + 31) / 32, 32, 0, s>>>(a, n);
  child<<<(n + 31) / 32, 32, 0, s1>>>(a, n);
}

// CHECK: not-stream-reassigned.cu:18:3: remark: threshold applied to launch of 'child'
// CHECK: not-stream-reassigned.cu:19:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent:
