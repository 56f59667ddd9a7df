// Children launched into one stream by one parent thread are independent
// when the arrays they write cannot be the ones the other touches: distinct
// parameters the parent declares __restrict__ (and leaves unchanged), or
// arrays both only update with integer atomics of one kind whose values are
// unused (they commute). Without __restrict__, after a reassignment, with a
// plain read of the atomically updated array, atomics of two kinds, a used
// atomic value or float atomics, the launch stays refused and the remark
// names the arrays.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --aggregate=grid %s -o %t.a.cu 2> %t.a.remarks
// RUN: %FileCheck %s --check-prefix=AGG < %t.a.remarks
// RUN: %nvcc-compile %t.a.cu

struct Span {
  int first, size;
};

__global__ void produce(const int *in, Span s, int *out) {
  int k = threadIdx.x;
  if (k < s.size)
    out[s.first + k] = in[s.first + k] + 1;
}

__global__ void accumulate(const int *index, const int *in, Span s, unsigned *sums) {
  int k = threadIdx.x;
  if (k < s.size)
    atomicAdd(&sums[index[s.first + k]], (unsigned)in[s.first + k]);
}

// The second neither reads `out` nor writes what the first reads; the
// parent's __restrict__ says the arrays are distinct.
__global__ void restricted(const int *__restrict__ in, const int *__restrict__ index,
                           int *__restrict__ out, unsigned *__restrict__ sums, Span s) {
  produce<<<1, 32>>>(in, s, out);
  accumulate<<<1, 32>>>(index, in, s, sums);
}

// The same without __restrict__: `out` may be `index` or `sums`.
__global__ void unrestricted(const int *in, const int *index, int *out, unsigned *sums, Span s) {
  produce<<<1, 32>>>(in, s, out);
  accumulate<<<1, 32>>>(index, in, s, sums);
}

// __restrict__, but `out` is made to point at `sums`' memory.
__global__ void reassigned(const int *__restrict__ in, const int *__restrict__ index,
                           int *__restrict__ out, unsigned *__restrict__ sums, Span s) {
  out = (int *)sums;
  produce<<<1, 32>>>(in, s, out);
  accumulate<<<1, 32>>>(index, in, s, sums);
}

__global__ void addInto(const int *in, int n, int *total) {
  int i = threadIdx.x;
  if (i < n)
    atomicAdd(total, in[i]);
}

__global__ void maxInto(const int *in, int n, int *total) {
  int i = threadIdx.x;
  if (i < n)
    atomicMax(total, in[i]);
}

__global__ void readTotal(const int *total, int *copy) { copy[0] = total[0]; }

__global__ void claimSlots(const int *in, int n, int *count, int *slots) {
  int i = threadIdx.x;
  if (i < n) {
    int slot = atomicAdd(count, 1);
    slots[slot] = in[i];
  }
}

__global__ void addFloats(const float *in, int n, float *total) {
  int i = threadIdx.x;
  if (i < n)
    atomicAdd(total, in[i]);
}

// Two atomic sums into one total commute.
__global__ void twoSums(const int *__restrict__ a, const int *__restrict__ b, int n,
                        int *__restrict__ total) {
  addInto<<<1, 32>>>(a, n, total);
  addInto<<<1, 32>>>(b, n, total);
}

// A child that reads the total must see the first child's sum.
__global__ void sumThenRead(const int *__restrict__ a, int n, int *__restrict__ total,
                            int *__restrict__ copy) {
  addInto<<<1, 32>>>(a, n, total);
  readTotal<<<1, 1>>>(total, copy);
}

// An addition and a maximum do not commute.
__global__ void sumThenMax(const int *__restrict__ a, int n, int *__restrict__ total) {
  addInto<<<1, 32>>>(a, n, total);
  maxInto<<<1, 32>>>(a, n, total);
}

// The slots each child claims depend on which runs first.
__global__ void twoClaims(const int *__restrict__ a, int n, int *__restrict__ count,
                          int *__restrict__ slots, int *__restrict__ moreSlots) {
  claimSlots<<<1, 32>>>(a, n, count, slots);
  claimSlots<<<1, 32>>>(a, n, count, moreSlots);
}

// Float additions round differently in another order.
__global__ void twoFloatSums(const float *__restrict__ a, int n, float *__restrict__ total) {
  addFloats<<<1, 32>>>(a, n, total);
  addFloats<<<1, 32>>>(a, n, total);
}

__device__ void bump(int &x) { ++x; }

__global__ void bumpAll(int *a, int n) {
  for (int i = 0; i < n; ++i)
    bump(a[i]);
}

__global__ void copyAll(const int *a, int n, int *b) {
  for (int i = 0; i < n; ++i)
    b[i] = a[i];
}

// An element passed by reference is written: the copy must follow the bump.
__global__ void bumpThenCopy(int *__restrict__ a, int n, int *__restrict__ b) {
  bumpAll<<<1, 1>>>(a, n);
  copyAll<<<1, 1>>>(a, n, b);
}

// CHECK: independent-children-restrict-atomics.cu:37:3: remark: threshold applied to launch of 'accumulate' (independence: independent of the earlier launches into the same stream: 'in', 'index', 'out', 'sums' are distinct __restrict__ parameters of the parent,
// CHECK: independent-children-restrict-atomics.cu:43:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: 'in' (read by the launch at line 42) and 'sums' (written by this one) may point into one array (the parent does not declare 'in' and 'sums' __restrict__ parameters it leaves unchanged, and its host launches do not show them distinct cudaMalloc allocations)
// CHECK: independent-children-restrict-atomics.cu:51:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: 'out' (written by the launch at line 50) and 'index' (read by this one) may point into one array
// CHECK: independent-children-restrict-atomics.cu:86:3: remark: threshold applied to launch of 'addInto' (independence: independent of the earlier launches into the same stream: 'total' only by atomics of one kind (add), which commute; 'a', 'b', 'total' are distinct __restrict__ parameters of the parent,
// CHECK: independent-children-restrict-atomics.cu:93:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: 'total' (written by the launch at line 92) and 'total' (read by this one) point into 'total', and no range of the integer parameters of 'readTotal' bounds its accesses
// CHECK: independent-children-restrict-atomics.cu:99:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: 'total' (written by the launch at line 98) and 'total' (written by this one) may overlap: [0, n) by the launch at line 98, [0, n) by this one
// CHECK: independent-children-restrict-atomics.cu:106:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: 'count' (written by the launch at line 105) and 'count' (written by this one) may overlap
// CHECK: independent-children-restrict-atomics.cu:112:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: 'total' (written by the launch at line 111) and 'total' (written by this one) may overlap
// CHECK: independent-children-restrict-atomics.cu:130:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: 'a' (written by the launch at line 129) and 'a' (read by this one) may overlap

// AGG: independent-children-restrict-atomics.cu:37:3: remark: aggregate applied to launch of 'accumulate'
// AGG: independent-children-restrict-atomics.cu:43:3: remark: not aggregated: {{.*}} not proved independent: 'in'
// AGG: independent-children-restrict-atomics.cu:86:3: remark: aggregate applied to launch of 'addInto'
// AGG: independent-children-restrict-atomics.cu:93:3: remark: not aggregated: {{.*}} not proved independent: 'total'

// AGG runs aggregation at grid granularity, which refuses what it cannot prove (warp and
// block scopes keep the order instead: Aggregate/ordered-scopes.cu).
