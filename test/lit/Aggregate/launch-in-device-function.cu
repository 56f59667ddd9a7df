// Launches written in device functions (a free helper, a member function)
// are gathered by the blocks of the kernels whose bodies call them: each
// such kernel opens a scope for the launch, and its part function calls a
// shadow copy of the function that takes the scope after the built-in index
// variables. The original function keeps its launch for other callers. A
// helper no kernel calls, and --aggregate=host, leave the launch with the
// reason.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --aggregate=warp %s -o %t.w.cu 2> /dev/null
// RUN: %nvcc-compile %t.w.cu
// RUN: %launchopt --aggregate=grid %s -o %t.g.cu 2> %t.g.remarks
// RUN: %FileCheck %s --check-prefix=GRID < %t.g.remarks
// RUN: %nvcc-compile %t.g.cu
// RUN: %launchopt --aggregate=host %s -o %t.h.cu 2> %t.h.remarks
// RUN: %FileCheck %s --check-prefix=HOST < %t.h.remarks

__global__ void addRow(const int *vals, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = vals[i] + 1;
}

// CHECK-LABEL: __device__ void expandRow(const int *vals, int *out, const int *offsets, int row) {
// CHECK: addRow<<<(n + 127) / 128, 128, 0, cudaStreamFireAndForget>>>
// CHECK-LABEL: __device__ void __lo_sh_expandRow(const int *vals, int *out, const int *offsets, int row, const uint3 __lo_blockIdx,
// CHECK-NEXT: {{.*}}launchopt::AggregationScope *[[SCOPE:__lo_agg[0-9]+]], launchopt::AggregationScope *[[MEMBER:__lo_agg[0-9]+]])
// CHECK: launchopt::reserveRecord([[SCOPE]],
// CHECK: ::new (__lo_record{{[0-9]+}}) __lo_args_addRow(vals + offsets[row],
__device__ void expandRow(const int *vals, int *out, const int *offsets, int row) {
  int n = offsets[row + 1] - offsets[row];
  if (n > 0)
    addRow<<<(n + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(vals + offsets[row],
                                                                 out + offsets[row], n);
}

// REMARKS: launch-in-device-function.cu:[[@LINE-4]]:5: remark: aggregate applied to launch of 'addRow' (aggregated-kernel: __lo_agg_addRow, gathered-by: the blocks of the kernels whose copies call the copy of 'expandRow': 'expandAll', 'expandStrided', granularity: block)

// CHECK-LABEL: static __device__ void __lo_part_expandAll(
// CHECK-NEXT: {{.*}}launchopt::AggregationScope *[[SCOPE]])
// CHECK: launchopt::AggregationScope *const [[MEMBER]] = nullptr;
// CHECK: __lo_sh_expandRow(vals, out, offsets, r, blockIdx, threadIdx, blockDim, gridDim, [[SCOPE]], [[MEMBER]]);
// CHECK: __global__ void expandAll(
// CHECK: launchopt::openScope(&[[SCOPE]]_block,
// CHECK: __lo_launch_addRow([[SCOPE]], cudaStreamFireAndForget, true);
__global__ void expandAll(const int *vals, int *out, const int *offsets, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows)
    expandRow(vals, out, offsets, r);
}

// A call in a loop: the children go to the fire-and-forget stream, so their
// order does not matter.
// CHECK-LABEL: static __device__ void __lo_part_expandStrided(
// CHECK: __lo_sh_expandRow(vals, out, offsets, r, blockIdx, threadIdx, blockDim, gridDim, [[SCOPE]], [[MEMBER]]);
__global__ void expandStrided(const int *vals, int *out, const int *offsets, int rows) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x)
    expandRow(vals, out, offsets, r);
}

__global__ void scaleRow(int *out, int n, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] *= factor;
}

// CHECK-LABEL: struct RowScaler {
// CHECK: __device__ void scale(int row) const {
// CHECK: __device__ void __lo_sh_scale(int row, const uint3 __lo_blockIdx,
// CHECK: launchopt::reserveRecord([[MEMBER]],
struct RowScaler {
  int *out;
  const int *offsets;
  __device__ void scale(int row) const {
    int n = offsets[row + 1] - offsets[row];
    if (n > 0)
      scaleRow<<<(n + 63) / 64, 64>>>(out + offsets[row], n, row % 3 + 1);
  }
};

// REMARKS: launch-in-device-function.cu:[[@LINE-4]]:7: remark: aggregate applied to launch of 'scaleRow' (aggregated-kernel: __lo_agg_scaleRow, gathered-by: the blocks of the kernels whose copies call the copy of 'scale': 'scaleAll', granularity: block)

// CHECK-LABEL: static __device__ void __lo_part_scaleAll(
// CHECK: s.__lo_sh_scale(r, blockIdx, threadIdx, blockDim, gridDim, [[SCOPE]], [[MEMBER]]);
__global__ void scaleAll(RowScaler s, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows)
    s.scale(r);
}

// No kernel calls it: its launch stays.
// CHECK-LABEL: __device__ void unused(int *out, int n) {
// CHECK-NEXT: scaleRow<<<(n + 63) / 64, 64>>>(out, n, 2);
__device__ void unused(int *out, int n) {
  scaleRow<<<(n + 63) / 64, 64>>>(out, n, 2);
}
// REMARKS: launch-in-device-function.cu:[[@LINE-2]]:3: remark: not aggregated: the launch is in the device function 'unused', which no kernel of this file calls (directly or through other device functions): no block gathers its launches

// GRID: launch-in-device-function.cu:{{[0-9]+}}:5: remark: aggregate applied to launch of 'addRow' ({{.*}}granularity: grid)
// HOST: remark: not aggregated: the launch is in a device function: --aggregate=host takes launches written directly in a host-launched kernel

int main() {
  int *vals, *out, *offsets;
  cudaMalloc(&vals, 4096);
  cudaMalloc(&out, 4096);
  cudaMalloc(&offsets, 4096);
  expandAll<<<1, 64>>>(vals, out, offsets, 32);
  expandStrided<<<1, 32>>>(vals, out, offsets, 32);
  scaleAll<<<1, 64>>>(RowScaler{out, offsets}, 32);
  cudaDeviceSynchronize();
  return 0;
}
