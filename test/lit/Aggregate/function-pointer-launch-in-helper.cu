// A device helper that launches whatever kernel it is given (a function
// pointer parameter) names no child: every granularity and --auto leave the
// launch with the reason, and the rest of the file is transformed (the scan
// of device-function launches used to dereference the missing child).
// RUN: %launchopt --aggregate=block %s -o %t-block.cu 2> %t-block.remarks
// RUN: %FileCheck %s < %t-block.remarks
// RUN: %nvcc-compile %t-block.cu
// RUN: %launchopt --aggregate=grid %s -o %t-grid.cu 2> %t-grid.remarks
// RUN: %FileCheck %s < %t-grid.remarks
// RUN: %launchopt --auto %s -o %t-auto.cu 2> %t-auto.remarks
// RUN: %nvcc-compile %t-auto.cu

__global__ void child(int *out, int from, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[from + i] += 1;
}

template <typename... A>
__device__ void launchVia(void (*kernel)(A...), dim3 grid, dim3 block, A... args) {
  kernel<<<grid, block>>>(args...);
}

__global__ void viaPointer(int *out, const int *sizes, int m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < m)
    launchVia(child, dim3((sizes[t] + 63) / 64), dim3(64), out, t * 1024, sizes[t]);
}

__global__ void direct(int *out, const int *sizes, int m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < m)
    child<<<(sizes[t] + 63) / 64, 64>>>(out, t * 1024, sizes[t]);
}

int main() {
  int *out, *sizes;
  cudaMalloc(&out, 1 << 24);
  cudaMalloc(&sizes, 4096);
  viaPointer<<<4, 256>>>(out, sizes, 1000);
  direct<<<4, 256>>>(out, sizes, 1000);
  cudaDeviceSynchronize();
}

// CHECK: :21:3: remark: not aggregated: the launched kernel is not named directly
// CHECK: :33:5: remark: aggregate applied to launch of 'child'
