// A kernel that launches itself, started by the host (the common recursive
// quicksort shape): the host's launch starts a persistent grid that runs the
// kernel's blocks, recording their launches of the kernel, and then the
// recorded launches in rounds until a round records none. The kernel as
// written keeps its launches for a device without cooperative launch, so
// the output still needs relocatable device code. Streams the kernel creates
// only for those launches are neither created nor destroyed in the grid.
// RUN: %launchopt --remove-launches=T1 %s -o %t1.cu --report %t1.txt 2> %t1.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t1.cu | %FileCheck %s --check-prefixes=CHECK,T1
// RUN: %FileCheck %s --check-prefix=REPORT < %t1.txt
// RUN: %launchopt --remove-launches=auto %s -o %ta.cu --report %ta.txt 2> %ta.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %ta.cu | %FileCheck %s --check-prefixes=CHECK,AUTO
// RUN: %FileCheck %s --check-prefix=AUTO-REPORT < %ta.txt
// RUN: %nvcc-compile %t1.cu
// RUN: %nvcc-compile %ta.cu
#include <cuda_runtime.h>

__device__ void smallSort(unsigned *data, int left, int right) {
  for (int i = left + 1; i <= right; ++i)
    for (int j = i; j > left && data[j - 1] > data[j]; --j) {
      unsigned t = data[j];
      data[j] = data[j - 1];
      data[j - 1] = t;
    }
}

__global__ void sortRange(unsigned *data, int left, int right, int depth) {
  if (depth >= 16 || right - left < 32) {
    smallSort(data, left, right);
    return;
  }
  unsigned *low = data + left, *high = data + right;
  unsigned pivot = data[(left + right) / 2];
  while (low <= high) {
    while (*low < pivot)
      ++low;
    while (*high > pivot)
      --high;
    if (low <= high) {
      unsigned t = *low;
      *low++ = *high;
      *high-- = t;
    }
  }
  if (left < high - data) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    sortRange<<<1, 1, 0, s>>>(data, left, (int)(high - data), depth + 1);
    cudaStreamDestroy(s);
  }
  if (low - data < right) {
    cudaStream_t s1;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    sortRange<<<1, 1, 0, s1>>>(data, (int)(low - data), right, depth + 1);
    cudaStreamDestroy(s1);
  }
}

// Launched by another kernel too: the persistent grid of 'walk' would not
// see the launch from 'startWalks', whose own persistent grid records it.
__global__ void walk(unsigned *d, unsigned n) {
  if (n > 1 && threadIdx.x == 0)
    walk<<<1, 32, 0, cudaStreamFireAndForget>>>(d, n / 2);
  d[threadIdx.x] += n;
}
__global__ void startWalks(unsigned *d) { walk<<<1, 32>>>(d + 64 * threadIdx.x, 64); }

// Its threads meet at a barrier: a block of the grid runs each of its blocks
// as one (t1-t2-block-child.cu); here one thread of a block leaves early.
__global__ void reduceHalves(unsigned *d, unsigned n) {
  if (threadIdx.x == 31 && n < 4)
    return;
  __syncthreads();
  if (n > 1 && threadIdx.x == 0)
    reduceHalves<<<1, 32, 0, cudaStreamFireAndForget>>>(d, n / 2);
}

void sortAll(unsigned *data, int n) {
  sortRange<<<1, 1>>>(data, 0, n - 1, 0);
  walk<<<1, 32>>>(data, 64);
  startWalks<<<1, 4>>>(data);
  reduceHalves<<<1, 32>>>(data, 64);
}

// The kernel keeps its launches; its record follows it.
// CHECK-LABEL: __global__ void sortRange(
// CHECK: sortRange<<<1, 1, 0, s>>>(data, left, (int)(high - data), depth + 1);
// CHECK: sortRange<<<1, 1, 0, s1>>>(data, (int)(low - data), right, depth + 1);
// CHECK: struct __lo_grec_sortRange {
// CHECK: __device__ launchopt::persistent::Queue<__lo_grec_sortRange, LAUNCHOPT_PERSISTENT_QUEUE> __lo_pq_sortRange;
// The copies the grid runs record the launches in the kernel's own queue,
// and create no stream.
// CHECK: static __device__ void __lo_pithread_sortRange_sortRange(
// CHECK-NOT: cudaStreamCreateWithFlags
// CHECK: launchopt::persistent::streamUnused();
// CHECK: !launchopt::persistent::record(__lo_pq_sortRange, __lo_r{{[0-9]+}})
// CHECK: __lo_pinline_sortRange_sortRange(__lo_r{{[0-9]+}}.args.data,
// The kernel's blocks, run first by the persistent grid, record likewise.
// CHECK: static __device__ void __lo_pblock_sortRange(
// CHECK-NOT: sortRange<<<
// CHECK: !launchopt::persistent::record(__lo_pq_sortRange, __lo_r{{[0-9]+}})
// CHECK: __global__ void __lo_persistent_sortRange(const dim3 __lo_parentGrid, unsigned *data, int left, int right, int depth)
// CHECK: launchopt::persistent::runParentBlocks(__lo_parentGrid,
// CHECK: launchopt::persistent::runRecorded<true>(__lo_pq_sortRange,
// CHECK-NEXT: [&]
// CHECK-NEXT: __lo_pithread_sortRange_sortRange(__lo_rec.args.data, __lo_rec.args.left, __lo_rec.args.right, __lo_rec.args.depth,
// The host starts the recursion in the persistent grid.
// CHECK-LABEL: void sortAll(
// T1: launchopt::persistent::launch<true>(__lo_persistent_sortRange, sortRange, __lo_pq_sortRange, launchopt::persistent::AlwaysSpread, 1, 1, 0, 0, data, 0, n - 1, 0);
// AUTO: launchopt::persistent::launch<true>(__lo_persistent_sortRange, sortRange, __lo_pq_sortRange, launchopt::persistent::AlwaysSpread, 1, 1, 0, 0, data, 0, n - 1, 0);
// CHECK: walk<<<1, 32>>>(data, 64);
// CHECK: reduceHalves<<<1, 32>>>(data, 64);

// REPORT: ('sortRange' -> 'sortRange'): remove-launches: applied
// REPORT: nested-launches: the kernel launches itself: the host's launch starts the persistent grid
// REPORT: persistent-launches: line 79
// REPORT: version: T1 (CB* -> PB*)
// REPORT: ('sortRange' -> 'sortRange'): remove-launches: applied
// REPORT: ('walk' -> 'walk'): remove-launches: not applied: the kernel is also launched from 'startWalks' (line 66): only a kernel that just the host and itself launch starts its recursion in a persistent grid
// REPORT: ('reduceHalves' -> 'reduceHalves'): remove-launches: not applied: a thread of the child may return at line {{[0-9]+}} without the rest of its block
// AUTO-REPORT: ('sortRange' -> 'sortRange'): remove-launches: applied
// AUTO-REPORT-NEXT: auto: megakernel (CB*/CK* -> PB*: packed child threads, T1 or T2): the kernel launches itself, and only the persistent grid runs a recursion
// AUTO-REPORT: ('walk' -> 'walk'): remove-launches: not applied: the kernel is also launched from 'startWalks'
// AUTO-REPORT-NEXT: recorded-by: the persistent grid of 'startWalks'
// AUTO-REPORT: ('startWalks' -> 'walk'): remove-launches: applied
// AUTO-REPORT: ('reduceHalves' -> 'reduceHalves'): remove-launches: not applied: a thread of the child may return
