// A child kernel defined in an included header is aggregated: its argument
// structs, part function, aggregated kernel and launcher go right after the
// #include, in the child's namespace, written from the header's text (the
// header is not edited), and the parent names them qualified. A header child
// whose callees read the built-in index variables is left, with the reason.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks -- -I%S/../Threshold/Inputs
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: %nvcc-compile -I%S/../Threshold/Inputs %t.cu
// RUN: %launchopt --aggregate=grid %s -o %t.g.cu 2> /dev/null -- -I%S/../Threshold/Inputs
// RUN: %nvcc-compile -I%S/../Threshold/Inputs %t.g.cu
// RUN: %launchopt --threshold --coarsen --aggregate=warp %s -o %t.tcw.cu 2> /dev/null -- -I%S/../Threshold/Inputs
// RUN: %nvcc-compile -I%S/../Threshold/Inputs %t.tcw.cu

#include "header-children.cuh"
// CHECK: #include "header-children.cuh"
// CHECK-NEXT: namespace kern {
// CHECK: struct __lo_args_scaleRange {
// CHECK: // launchopt: aggregation copies of 'scaleRange', defined in the header above.
// CHECK-NEXT: namespace kern {
// CHECK: static __device__ void __lo_part_scaleRange(float *cells, int n,
// CHECK: __global__ void __lo_agg_scaleRange(
// CHECK: static __device__ void __lo_launch_scaleRange(
// CHECK: // launchopt: aggregation copies of 'fillRange', defined in the header above.
// CHECK: __global__ void __lo_agg_fillRange(

// CHECK-LABEL: static __device__ void __lo_part_wide(
// CHECK: ::new (__lo_record{{[0-9]+}}) ::kern::__lo_args_scaleRange(cells + threadIdx.x * 4096, n);
// CHECK: ::kern::__lo_launch_scaleRange(__lo_agg{{[0-9]+}}, cudaStreamFireAndForget, true);
__global__ void wide(float *cells, const int *sizes) {
  int n = sizes[threadIdx.x];
  if (n > 0)
    kern::scaleRange<<<(n + 255) / 256, 256>>>(cells + threadIdx.x * 4096, n);
}
// REMARKS: child-in-header.cu:[[@LINE-2]]:5: remark: aggregate applied to launch of 'scaleRange' (aggregated-kernel: __lo_agg_scaleRange, copied-after: the #include of the header that defines it, granularity: block)

// CHECK-LABEL: static __device__ void __lo_part_filled(
// CHECK: ::kern::__lo_launch_fillRange<int>(__lo_agg{{[0-9]+}}, cudaStreamFireAndForget, true);
__global__ void filled(int *cells, const int *sizes) {
  int n = sizes[threadIdx.x];
  kern::fillRange<int><<<(n + 127) / 128, 128>>>(cells + threadIdx.x * 4096, n, 7);
}

// CHECK-LABEL: __global__ void cleared(
// CHECK: kern::clearRange<<<(n + 127) / 128, 128>>>(cells + threadIdx.x * 4096, n);
__global__ void cleared(float *cells, const int *sizes) {
  int n = sizes[threadIdx.x];
  kern::clearRange<<<(n + 127) / 128, 128>>>(cells + threadIdx.x * 4096, n);
}
// REMARKS: child-in-header.cu:[[@LINE-2]]:3: remark: not aggregated: the child kernel, defined in an included header, calls functions that read the built-in index variables (or queries cooperative groups): its copy after the #include cannot pass them the original launch's values

int main() {
  wide<<<1, 32>>>(nullptr, nullptr);
  filled<<<1, 32>>>(nullptr, nullptr);
  cleared<<<1, 32>>>(nullptr, nullptr);
  cudaDeviceSynchronize();
  return 0;
}
