// Children launched into the same ordered stream by one parent thread are
// serialized (threshold) or aggregated when launchopt proves them
// independent: disjoint index ranges of one array (lo/hi pairs, pointer +
// length) or arrays only read; overlapping ranges are still refused.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --aggregate=grid %s -o %t.a.cu 2> %t.a.remarks
// RUN: %FileCheck %s --check-prefix=AGG < %t.a.remarks
// RUN: %nvcc-compile %t.a.cu

// Sorts data[lo, hi).
__global__ void quicksort(int *data, int lo, int hi) {
  if (hi - lo < 2)
    return;
  int pivot = data[hi - 1];
  int store = lo;
  for (int i = lo; i < hi - 1; ++i)
    if (data[i] < pivot) {
      int t = data[i];
      data[i] = data[store];
      data[store] = t;
      ++store;
    }
  int t = data[store];
  data[store] = data[hi - 1];
  data[hi - 1] = t;
  quicksort<<<1, 1>>>(data, lo, store);
  quicksort<<<1, 1>>>(data, store + 1, hi);
}

__global__ void sortRange(int *a, int n) {
  for (int i = 1; i < n; ++i)
    if (a[i - 1] > a[i]) {
      int t = a[i];
      a[i] = a[i - 1];
      a[i - 1] = t;
    }
}

__global__ void halves(int *a, int n) {
  int mid = n / 2;
  sortRange<<<1, 1>>>(a, mid);
  sortRange<<<1, 1>>>(a + mid, n - mid);
}

__global__ void overlapping(int *a, int n) {
  sortRange<<<1, 1>>>(a, n);
  sortRange<<<1, 1>>>(a + 1, n - 1);
}

__global__ void sum(const int *in, int n, int *out) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += in[i];
  out[0] = s;
}

// Both only read `in`, but `first` and `second` may point to the same array.
__global__ void twoSums(const int *in, int n, int *first, int *second) {
  sum<<<1, 1>>>(in, n, first);
  sum<<<1, 1>>>(in, n, second);
}

// The same `out`: a write after a write.
__global__ void sameOut(const int *in, int n, int *out) {
  sum<<<1, 1>>>(in, n, out);
  sum<<<1, 1>>>(in, n, out);
}

// CHECK: independent-children.cu:29:3: remark: threshold applied to launch of 'quicksort' (independence: independent of the earlier launches into the same stream: 'data' in disjoint ranges: [lo, store) by the launch at line 28, [store + 1, hi) by this one
// CHECK: independent-children.cu:44:3: remark: threshold applied to launch of 'sortRange' (independence: {{.*}}'a' in disjoint ranges: [0, mid) by the launch at line 43, [mid, n) by this one
// CHECK: independent-children.cu:49:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent:
// CHECK: independent-children.cu:62:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent:
// CHECK: independent-children.cu:68:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent:

// AGG: independent-children.cu:29:3: remark: aggregate applied to launch of 'quicksort'
// AGG: independent-children.cu:44:3: remark: aggregate applied to launch of 'sortRange'
// AGG: independent-children.cu:49:3: remark: not aggregated: the parent thread launches other children into the same stream
// AGG: independent-children.cu:62:3: remark: not aggregated: the parent thread launches
// AGG: independent-children.cu:68:3: remark: not aggregated: the parent thread launches

// AGG runs aggregation at grid granularity, which refuses what it cannot prove (warp and
// block scopes keep the order instead: Aggregate/ordered-scopes.cu).
