// T -> C -> A on a child that calls a function reading the built-ins: the
// shadow copy is written once, by the first pass; the later passes find it in
// the file and call it instead of writing it again.
// RUN: %launchopt --threshold --coarsen --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }

// CHECK-LABEL: __device__ int __lo_sh_gid(const uint3 __lo_blockIdx,
// CHECK-NOT: __device__ int __lo_sh_gid(const uint3 __lo_blockIdx,

__global__ void child(float *d, int n) {
  if (gid() < n)
    d[gid()] += 1.0f;
}

// CHECK-LABEL: __global__ void __lo_coarse_child(
// CHECK: { // one original block
// CHECK: if (__lo_sh_gid(blockIdx, threadIdx, blockDim, gridDim) < n)
// CHECK-LABEL: static __device__ void __lo_thread_child(
// CHECK: if (__lo_sh_gid(blockIdx, threadIdx, blockDim, gridDim) < n)

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  child<<<(n + 127) / 128, 128>>>(d, n);
}

void host(float *d, const int *sizes) {
  parent<<<4, 256>>>(d, sizes);
}

// REMARK: threshold-coarsen-aggregate-callee.cu:27:3: remark: threshold applied to launch of 'child'
// REMARK: threshold-coarsen-aggregate-callee.cu:{{[0-9]+}}:{{[0-9]+}}: remark: coarsen applied to launch of 'child'
// REMARK: threshold-coarsen-aggregate-callee.cu:{{[0-9]+}}:{{[0-9]+}}: remark: aggregate applied to launch of '__lo_coarse_child'
