// Nested children in the persistent grid: the parent launches 'middle',
// which launches 'leaf'. The grid runs copies of 'middle' that record its
// launches of 'leaf' in the parent's queue too, and runs the recorded work
// in rounds; the kernels as written keep their launches for a device
// without cooperative launch.
// RUN: %launchopt --remove-launches=T1 %s -o %t1.cu --report %t1.txt 2> /dev/null
// RUN: grep -v '^// [A-Z0-9-]*:' %t1.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t1.txt
// RUN: %nvcc-compile %t1.cu
// RUN: %launchopt --remove-launches=auto %s -o %ta.cu --report %ta.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=AUTO < %ta.txt
// RUN: %nvcc-compile %ta.cu
// A nested child whose threads work together is left to the other versions.
// RUN: sed -e 's|^  out\[i\] += 1;|  __syncthreads(); out[i] += 1;|' %s > %t.sync.cu
// RUN: %launchopt --remove-launches=T1 %t.sync.cu -o %t.sync.out.cu --report %t.sync.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=SYNC < %t.sync.txt
#include <cuda_runtime.h>

__global__ void leaf(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] += 1;
}

__global__ void middle(int *out, const int *sizes) {
  int k = threadIdx.x, n = sizes[k];
  if (n > 0)
    leaf<<<(n + 31) / 32, 32>>>(out + 64 * k, n);
}

__global__ void top(int *out, const int *sizes) {
  if (threadIdx.x == 0)
    middle<<<1, 32>>>(out + 2048 * blockIdx.x, sizes + 32 * blockIdx.x);
}

void run(int *out, const int *sizes, int groups) { top<<<groups, 64>>>(out, sizes); }

// CHECK: __device__ launchopt::persistent::Queue<launchopt::persistent::RecordOfAny<0u, __lo_grec_middle, __lo_grec_leaf>, LAUNCHOPT_PERSISTENT_QUEUE> __lo_pq_top;
// CHECK: static __device__ void __lo_pithread_top_middle(
// CHECK: if (!launchopt::persistent::recordAs<1>(__lo_pq_top, __lo_r[[#]])) {
// CHECK: __lo_inline_leaf(
// CHECK: static __device__ void __lo_pblock_top(
// CHECK: if (!launchopt::persistent::recordAs<0>(__lo_pq_top, __lo_r[[#]])) {
// CHECK: launchopt::persistent::runRecorded<true>(__lo_pq_top, launchopt::persistent::ChildBlocks,
// CHECK: case 0: { // 'middle'
// CHECK: __lo_pithread_top_middle(
// CHECK: case 1: { // 'leaf'
// CHECK: __lo_ithread_leaf(
// CHECK: launchopt::persistent::launch<true>(__lo_persistent_top, top, __lo_pq_top, launchopt::persistent::AlwaysSpread,

// REPORT: ('middle' -> 'leaf'): remove-launches: not applied: the parent is launched from the device
// REPORT: recorded-by: the persistent grid of 'top' (__lo_pithread_top_middle), which runs this kernel
// REPORT: ('top' -> 'middle'): remove-launches: applied
// REPORT: nested-launches: the child launches (line [[#]], of 'leaf'): in the persistent grid its copies (__lo_pithread_top_middle) record those launches in the same queue
// REPORT: version: T1 (CB* -> PB*)

// AUTO: ('top' -> 'middle'): remove-launches: applied
// AUTO: version: megakernel

// SYNC: ('top' -> 'middle'): remove-launches: not applied: the child launches 'leaf' (line {{[0-9]+}}), whose threads work together: the persistent grid takes such a child only from the parent or from itself
