// The order guard across launch sites. A recursive child that partitions
// by values (no range of its parameters bounds its scans) launches its two
// halves into one stream: the second half is guarded, the first sets the
// flag (the second need not: nothing follows it), and the serial copy of the recursive child holds its own flag. A
// launch into the same stream that is left as written (its child has a
// barrier) leaves the parent thread unable to tell whether it launched, so
// the launch after it is refused, with both reasons. A launch into a
// fire-and-forget stream neither sets nor reads the flag.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__device__ int partition(int *a, int lo, int hi) {
  int pivot = a[lo + (hi - 1 - lo) / 2];
  int i = lo - 1, j = hi;
  while (true) {
    do
      ++i;
    while (a[i] < pivot);
    do
      --j;
    while (a[j] > pivot);
    if (i >= j)
      return j + 1;
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

__global__ void quicksort(int *a, int lo, int hi) {
  if (hi - lo < 2)
    return;
  int mid = partition(a, lo, hi);
  quicksort<<<1, 1>>>(a, lo, mid);
  quicksort<<<1, 1>>>(a, mid, hi);
}

__global__ void scale(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= 2;
}

__global__ void blockSum(int *a, int n) {
  __shared__ int total;
  if (threadIdx.x == 0)
    total = 0;
  __syncthreads();
  atomicAdd(&total, a[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0)
    a[n] = total;
}

__global__ void pipeline(int *a, int n) {
  blockSum<<<1, 32>>>(a, n);
  scale<<<1, 32>>>(a, n);
  scale<<<1, 32, 0, cudaStreamFireAndForget>>>(a + n, n);
}

// CHECK-LABEL: __global__ void quicksort(
// CHECK-NEXT: bool __lo_launchedInOrder = false; // launchopt: this thread launched into an ordered stream
// CHECK: { // launchopt: thresholded launch of 'quicksort'
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD ||
// CHECK-NEXT: __lo_serialDepth >= LAUNCHOPT_SERIAL_DEPTH) {
// CHECK-NEXT: quicksort<<<__lo_grid1, __lo_block1>>>(a, lo, mid);
// CHECK-NEXT: __lo_launchedInOrder = true;
// CHECK-NEXT: } else
// CHECK: { // launchopt: thresholded launch of 'quicksort'
// CHECK: __lo_serialDepth >= LAUNCHOPT_SERIAL_DEPTH || __lo_launchedInOrder)
// CHECK-NEXT: quicksort<<<__lo_grid2, __lo_block2>>>(a, mid, hi);
// CHECK-NEXT: else

// The serial copy of the recursive child declares its own flag.
// CHECK-LABEL: static __device__ void __lo_thread_quicksort(
// CHECK: bool __lo_launchedInOrder = false;
// CHECK: __lo_launchedInOrder = true;

// CHECK-LABEL: __global__ void pipeline(
// CHECK-NEXT: blockSum<<<1, 32>>>(a, n);
// CHECK-NEXT: scale<<<1, 32>>>(a, n);
// CHECK-NEXT: { // launchopt: thresholded launch of 'scale'
// CHECK-NOT: __lo_launchedInOrder
// CHECK: }

// REMARK: order-guard-partners.cu:36:3: remark: threshold applied to launch of 'quicksort' (serial-function
// REMARK: order-guard-partners.cu:37:3: remark: threshold applied to launch of 'quicksort' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: 'a' (written by the launch at line 36) and 'a' (written by this one) point into 'a', and no range of the integer parameters of 'quicksort' bounds its accesses
// REMARK: order-guard-partners.cu:58:3: remark: not thresholded: child uses __syncthreads
// REMARK: order-guard-partners.cu:59:3: remark: not thresholded: the parent thread launches other children into the same stream before this one; not proved independent: 'a' (written by the launch at line 58) and 'a' (written by this one) {{.*}}; and the launch of 'blockSum' at line 58, which may go into the same stream before this one, is left as written, so the parent thread cannot tell whether a serialized child would overtake it
// REMARK: order-guard-partners.cu:60:3: remark: threshold applied to launch of 'scale' (serial-function
