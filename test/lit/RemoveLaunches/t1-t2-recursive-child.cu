// A child that launches itself (a recursion started by a host-launched
// parent): the persistent grid of the parent runs copies of the child whose
// launches of itself are recorded in the same queue, and runs the recorded
// work in rounds until a round records nothing. The kernel itself and T4's
// copy (for a device without cooperative launch) keep the launches, so the
// output still needs relocatable device code.
// RUN: %launchopt --remove-launches=T1 %s -o %t1.cu --report %t1.txt 2> %t1.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t1.cu | %FileCheck %s --check-prefixes=CHECK,T1
// RUN: %FileCheck %s --check-prefix=REPORT < %t1.txt
// RUN: %launchopt --remove-launches=auto %s -o %ta.cu 2> %ta.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %ta.cu | %FileCheck %s --check-prefixes=CHECK,AUTO
// RUN: %launchopt --remove-launches=T2 --assume-independent-children %s -o %ti.cu 2> %ti.remarks
// RUN: %FileCheck %s --check-prefix=INDEPENDENT < %ti.remarks
// RUN: %nvcc-compile %ti.cu
// RUN: %nvcc-compile %t1.cu
// RUN: %nvcc-compile %ta.cu
#include <cuda_runtime.h>

__global__ void halve(unsigned *d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i >= n / 2)
    d[i] = n;
  if (i == 0 && n > 1)
    halve<<<(n / 2 + 31) / 32, 32>>>(d, n / 2);
}

__global__ void start(unsigned *d, const unsigned *lengths) {
  unsigned n = lengths[threadIdx.x];
  halve<<<(n + 31) / 32, 32, 0, cudaStreamFireAndForget>>>(d + 1024 * threadIdx.x, n);
  if (cudaGetLastError() != cudaSuccess)
    d[0] = 0;
}

// Two launches of itself into the block's stream keep their order only
// when the user says the halves are independent.
__global__ void halves(unsigned *d, unsigned n) {
  d[threadIdx.x] += n;
  if (threadIdx.x == 0 && n > 1) {
    halves<<<1, 32>>>(d, n / 2);
    halves<<<1, 32>>>(d + n / 2, n / 2);
  }
}
__global__ void sortAll(unsigned *d) { halves<<<1, 32>>>(d + 4096 * threadIdx.x, 4096); }

void run(unsigned *d, const unsigned *lengths) {
  start<<<1, 64>>>(d, lengths);
  sortAll<<<1, 8>>>(d);
}

// The kernel keeps its launch of itself.
// CHECK-LABEL: __global__ void halve(
// CHECK: halve<<<(n / 2 + 31) / 32, 32>>>(d, n / 2);
// CHECK: __device__ launchopt::persistent::Queue<__lo_grec_halve, LAUNCHOPT_PERSISTENT_QUEUE> __lo_pq_start;
// CHECK: static __device__ void __lo_pinline_start_halve(unsigned *d, unsigned n, const dim3 __lo_gridDim, const dim3 __lo_blockDim);
// The copy the grid runs records the launch of itself in the parent's queue,
// or runs it through the same copies when the queue is full.
// CHECK: static __device__ void __lo_pithread_start_halve(
// CHECK-NOT: halve<<<
// CHECK: if ({{(launchopt::persistent::runsInline\(__lo_r[0-9]+.shape.grid, __lo_r[0-9]+.shape.block\) \|\| )?}}!launchopt::persistent::record(__lo_pq_start, __lo_r{{[0-9]+}})) {
// CHECK: __lo_pinline_start_halve(__lo_r{{[0-9]+}}.args.d, __lo_r{{[0-9]+}}.args.n,
// CHECK: static __device__ void __lo_pinline_start_halve(
// The parent block's copy calls no device runtime: its error query is
// cudaSuccess there, where nothing launches.
// CHECK: static __device__ void __lo_pblock_start(
// CHECK-NOT: cudaGetLastError
// CHECK: __lo_pinline_start_halve(
// CHECK: if (cudaSuccess != cudaSuccess)
// CHECK: launchopt::persistent::runRecorded<true>(__lo_pq_start,
// CHECK-NEXT: [&]
// CHECK-NEXT: __lo_pithread_start_halve(__lo_rec.args.d, __lo_rec.args.n, __lo_block, __lo_thread,
// T1: launchopt::persistent::launch<true>(__lo_persistent_start, start, __lo_pq_start, launchopt::persistent::AlwaysSpread,
// AUTO: launchopt::persistent::launch<true>(__lo_persistent_start, start, __lo_pq_start, launchopt::persistent::AlwaysSpread,

// REPORT: ('halve' -> 'halve'): remove-launches: not applied: the kernel is also launched from 'start' (line {{[0-9]+}}): only a kernel that just the host and itself launch starts its recursion in a persistent grid
// REPORT-NEXT: recorded-by: the persistent grid of 'start' (__lo_pithread_start_halve), which runs this kernel
// REPORT: ('start' -> 'halve'): remove-launches: applied
// REPORT: nested-launches: the child launches itself (line {{[0-9]+}}): in the persistent grid its copies (__lo_pithread_start_halve) record those launches in the same queue, run in rounds until none is recorded; the kernel and T4's copy launch them
// REPORT: version: T1 (CB* -> PB*)

// REPORT: ('sortAll' -> 'halves'): remove-launches: not applied: the child's launch of itself (line {{[0-9]+}}) follows another launch of its thread into an ordered stream, not proved independent
// INDEPENDENT: remark: remove-launches applied to launch of 'halve' (function: __lo_persistent_start,
// INDEPENDENT: remark: remove-launches applied to launch of 'halves' (function: __lo_persistent_sortAll,{{.*}}nested-launches: the child launches itself (line {{[0-9]+}}, line {{[0-9]+}})
