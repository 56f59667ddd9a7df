// A template kernel that launches itself one level down under `if constexpr`
// (a recursion the compiler unrolls): the code that gathers aggregated
// launches sits outside the branch and would name countdown<D - 1> where
// the condition discards the launch, instantiating countdown<-1>, <-2>, ...
// without end (nvcc failed on the output). Aggregation leaves the launch
// with the reason; the other launch of the file is aggregated, and the
// outputs compile.
// RUN: %launchopt --aggregate=block %s -o %t-block.cu 2> %t-block.remarks
// RUN: %FileCheck %s < %t-block.remarks
// RUN: %nvcc-compile %t-block.cu
// RUN: %launchopt --aggregate=warp %s -o %t-warp.cu 2> %t-warp.remarks
// RUN: %FileCheck %s < %t-warp.remarks
// RUN: %launchopt --auto %s -o %t-auto.cu 2> %t-auto.remarks
// RUN: %nvcc-compile %t-auto.cu

template <int D>
__global__ void countdown(int *hits) {
  atomicAdd(hits + D, 1);
  if constexpr (D > 0)
    if (threadIdx.x == 0)
      countdown<D - 1><<<1, 32>>>(hits);
}

__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1;
}

__global__ void start(int *hits, const int *sizes, int *out, int m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t == 0)
    countdown<3><<<1, 32>>>(hits);
  if (t < m)
    fill<<<(sizes[t] + 63) / 64, 64>>>(out + t * 256, sizes[t]);
}

int main() {
  int *hits, *sizes, *out;
  cudaMalloc(&hits, 64);
  cudaMalloc(&sizes, 4096);
  cudaMalloc(&out, 1 << 20);
  start<<<4, 256>>>(hits, sizes, out, 1000);
  cudaDeviceSynchronize();
}

// CHECK: :21:7: remark: not aggregated: the launch is under `if constexpr`: the code that gathers it outside that branch would name the child where the condition discards the launch
// CHECK: :35:5: remark: aggregate applied to launch of 'fill'
