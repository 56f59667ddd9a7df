// A blockIdx-derived argument is the same for the threads of a warp or a
// block but not of the whole grid: it is passed once per scope at warp and
// block granularity, per launch at grid granularity.
// RUN: %launchopt --aggregate=warp %s -o %t.warp.cu 2> %t.warp.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.warp.cu | %FileCheck %s --check-prefixes=CHECK,ONCE
// RUN: %FileCheck %s --check-prefix=REMARK-ONCE < %t.warp.remarks
// RUN: %nvcc-compile %t.warp.cu
// RUN: %launchopt --aggregate=block %s -o %t.block.cu 2> %t.block.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.block.cu | %FileCheck %s --check-prefixes=CHECK,ONCE
// RUN: %FileCheck %s --check-prefix=REMARK-ONCE < %t.block.remarks
// RUN: %nvcc-compile %t.block.cu
// RUN: %launchopt --aggregate=grid %s -o %t.grid.cu 2> %t.grid.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.grid.cu | %FileCheck %s --check-prefixes=CHECK,PER-LAUNCH
// RUN: %FileCheck %s --check-prefix=REMARK-PER-LAUNCH < %t.grid.remarks
// RUN: %nvcc-compile %t.grid.cu

__global__ void addRow(float *m, int row, int offset) {
  m[row * 1024 + offset + threadIdx.x] += 1.0f;
}

__global__ void parent(float *m) {
  int row = blockIdx.x;
  addRow<<<1, 128>>>(m, row, threadIdx.x * 128);
}

// CHECK-LABEL: struct __lo_uargs_addRow {
// CHECK-NEXT: float *m;
// ONCE-NEXT: int row;
// CHECK-NEXT: __device__ __lo_uargs_addRow(
// CHECK-LABEL: struct __lo_args_addRow {
// PER-LAUNCH-NEXT: int row;
// CHECK-NEXT: int offset;
// CHECK-NEXT: __device__ __lo_args_addRow(
// ONCE: __lo_part_addRow(__lo_u.m, __lo_u.row, __lo_a.offset, __lo_t.blockIdx, __lo_t.threadIdx,
// PER-LAUNCH: __lo_part_addRow(__lo_u.m, __lo_a.row, __lo_a.offset, __lo_t.blockIdx, __lo_t.threadIdx,
// ONCE: ::new (__lo_record1) __lo_args_addRow(threadIdx.x * 128);
// ONCE-NEXT: if (__lo_uniform1)
// ONCE-NEXT: ::new (__lo_uniform1) __lo_uargs_addRow(m, row);
// PER-LAUNCH: ::new (__lo_record1) __lo_args_addRow(row, threadIdx.x * 128);
// PER-LAUNCH-NEXT: if (__lo_uniform1)
// PER-LAUNCH-NEXT: ::new (__lo_uniform1) __lo_uargs_addRow(m);
// CHECK: addRow<<<__lo_agrid1, __lo_ablock1, __lo_dshared1, __lo_stream>>>(

// REMARK-ONCE: remark: aggregate applied to launch of 'addRow' ({{.*}}, uniform-arguments: m, row)
// REMARK-PER-LAUNCH: remark: aggregate applied to launch of 'addRow' (aggregated-kernel: __lo_agg_addRow, granularity: grid, uniform-arguments: m)

void host(float *m) { parent<<<8, 8>>>(m); }
