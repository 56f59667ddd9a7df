// Per-kernel registers and static shared memory come from nvcc's resource
// report (captured here; run live with --nvcc-resources) instead of the
// model's default of 32 registers.
// RUN: %launchopt fuse %s --search=none --quiet --resource-usage=%S/Inputs/resources-from-nvcc.ptxas.txt --write-problem=- -o %t.cu 2> %t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=COUNT < %t.err
// RUN: %launchopt fuse %s --search=none --quiet --write-problem=- -o %t.cu | %FileCheck %s --check-prefix=DEFAULT

__global__ void tiled(const float *in, float *out) {
  __shared__ float t[256 + 2];
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x + 1] = in[c];
  __syncthreads();
  out[c] = t[threadIdx.x] + t[threadIdx.x + 2];
}
__global__ void scale(float *x, float s) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  x[c] *= s;
}

void run(const float *in, float *out, int n) {
  tiled<<<n / 256, 256>>>(in, out);
  scale<<<n / 256, 256>>>(out, 2.0f);
}

// CHECK: "name": "tiled"
// CHECK: "registers": 14,
// CHECK: "shared_memory_bytes": 1032,
// CHECK: "name": "scale"
// CHECK: "registers": 8,
// CHECK: "shared_memory_bytes": 0,
// COUNT: resource usage: registers and shared memory of 2 of 2 kernels from nvcc
// DEFAULT: "registers": 32,
// DEFAULT: "shared_memory_bytes": 0,
