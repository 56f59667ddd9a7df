// What the independence proof of children launched into one stream sees and
// what it says when it fails: a global reached only by atomicAdd with its
// value unused (a failure counter) and shared memory do not order the
// children; an insertion sort's inner loop stays in [lo, hi) (j only steps
// down from i - 1, each step guarded by j >= lo). A struct argument holding a
// pointer, a global that is read, and accesses that no range of the child's
// integer parameters bounds (a scan to a sentinel) leave the launch refused.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --aggregate=block %s -o %t.a.cu 2> %t.a.remarks
// RUN: %FileCheck %s --check-prefix=AGG < %t.a.remarks
// RUN: %nvcc-compile %t.a.cu

__device__ int failures;
__device__ int limit;

__global__ void fill(int *a, int lo, int hi) {
  for (int i = lo; i < hi; ++i)
    a[i] = i;
  if (hi < lo)
    atomicAdd(&failures, 1);
}

__global__ void halves(int *a, int n) {
  int mid = n / 2;
  fill<<<1, 1>>>(a, 0, mid);
  fill<<<1, 1>>>(a, mid, n);
}

__global__ void fillToLimit(int *a, int lo, int hi) {
  for (int i = lo; i < hi; ++i)
    a[i] = limit;
}

__global__ void halvesReadingGlobal(int *a, int n) {
  int mid = n / 2;
  fillToLimit<<<1, 1>>>(a, 0, mid);
  fillToLimit<<<1, 1>>>(a, mid, n);
}

// Shared memory is each child block's own.
__global__ void fillThroughShared(int *a, int lo, int hi) {
  __shared__ int staged[32];
  staged[threadIdx.x] = lo;
  __syncthreads();
  if (threadIdx.x == 0)
    for (int i = lo; i < hi; ++i)
      a[i] = staged[0] + i;
}

__global__ void halvesThroughShared(int *a, int n) {
  int mid = n / 2;
  fillThroughShared<<<1, 32>>>(a, 0, mid);
  fillThroughShared<<<1, 32>>>(a, mid, n);
}

struct Slice {
  int *data;
  int size;
};

__global__ void clear(Slice s) {
  for (int i = 0; i < s.size; ++i)
    s.data[i] = 0;
}

__global__ void twoSlices(Slice first, Slice second) {
  clear<<<1, 1>>>(first);
  clear<<<1, 1>>>(second);
}

__device__ void insertionSort(int *a, int lo, int hi) {
  for (int i = lo + 1; i < hi; ++i) {
    int x = a[i], j = i - 1;
    while (j >= lo && a[j] > x) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = x;
  }
}

__global__ void sortHalf(int *a, int lo, int hi) { insertionSort(a, lo, hi); }

__global__ void sortHalves(int *a, int n) {
  int mid = n / 2;
  sortHalf<<<1, 1>>>(a, 0, mid);
  sortHalf<<<1, 1>>>(a, mid, n);
}

// The scan ends where the array holds the pivot: a bound of values, not of indices.
__global__ void scanHalf(int *a, int lo, int hi) {
  if (hi <= lo)
    return;
  int pivot = a[lo], i = lo;
  do
    ++i;
  while (a[i] < pivot);
  a[lo] = i - lo;
}

__global__ void scanHalves(int *a, int n) {
  int mid = n / 2;
  scanHalf<<<1, 1>>>(a, 0, mid);
  scanHalf<<<1, 1>>>(a, mid, n);
}

// CHECK: independent-children-unproved.cu:28:3: remark: threshold applied to launch of 'fill' (independence: independent of the earlier launches into the same stream: 'a' in disjoint ranges: [0, mid) by the launch at line 27, [mid, n) by this one
// CHECK: independent-children-unproved.cu:39:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: 'fillToLimit' reaches memory other than through its pointer parameters
// CHECK: independent-children-unproved.cu:70:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: the launch at line 69 passes an argument of type 'Slice', which may hold a pointer
// CHECK: independent-children-unproved.cu:89:3: remark: threshold applied to launch of 'sortHalf' (independence: independent of the earlier launches into the same stream: 'a' in disjoint ranges: [0, mid) by the launch at line 88, [mid, n) by this one (each child stays within [lo, hi) of its parameters)
// CHECK: independent-children-unproved.cu:106:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: 'a' (written by the launch at line 105) and 'a' (written by this one) point into 'a', and no range of the integer parameters of 'scanHalf' bounds its accesses: [lo, hi) fails at 'a[i]' in 'scanHalf' at line 99

// AGG: independent-children-unproved.cu:55:3: remark: aggregate applied to launch of 'fillThroughShared'
