// --aggregate=threads:block: block scopes, child threads packed. A 2D child
// gets its 2D block and thread indices back from its linear index in its
// launch; the per-block launcher still launches small scopes one by one.
// RUN: %launchopt --aggregate=threads:block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// The runtime header stays an include with --include-runtime.
// RUN: %launchopt --aggregate=threads:multiblock:4 --include-runtime %s -o %t.inc.cu 2> /dev/null
// RUN: %FileCheck %s --check-prefix=INCLUDE < %t.inc.cu
// RUN: %nvcc-compile -I %S/../../../runtime/include %t.inc.cu

__global__ void blur(float *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    img[y * w + x] *= 0.5f;
}

__global__ void parent(float *img, const int *widths, int h) {
  int w = widths[threadIdx.x];
  blur<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(img, w, h);
}

// CHECK: out->blockIdx = make_uint3(b % r.grid.x, (b / r.grid.x) % r.grid.y, b / (r.grid.x * r.grid.y));
// CHECK-LABEL: __global__ void __lo_agg_blur(
// CHECK: if (!launchopt::findPackedOriginal(__lo_launch, &__lo_t))
// CHECK-LABEL: static __device__ void __lo_launch_blur(
// CHECK: if (!launchopt::summarizePacked(__lo_scope, &__lo_s))
// CHECK: if (__lo_allowDirect && __lo_s.count < LAUNCHOPT_AGG_THRESHOLD) {
// CHECK: void *__lo_record1 = launchopt::reservePackedRecord(__lo_agg1,
// CHECK-LABEL: __global__ void parent(float *img, const int *widths, int h) {
// CHECK: __shared__ launchopt::AggregationScope __lo_agg1_block;
// CHECK: __lo_launch_blur(__lo_agg1, cudaStreamFireAndForget, true);

// INCLUDE: #include {{<}}launchopt/aggregation.cuh>
// INCLUDE-NEXT: #include {{<}}launchopt/thread_aggregation.cuh>
// INCLUDE: const unsigned __lo_agg1_group = launchopt::linearBlock() / 4u;
// INCLUDE: launchopt::reservePackedRecord(

// REMARK: threads-block-2d.cu:22:3: remark: aggregate applied to launch of 'blur' (aggregated-kernel: __lo_agg_blur, granularity: block, packing: threads, uniform-arguments: img, h)
