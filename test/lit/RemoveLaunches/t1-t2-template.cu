// T1/T2 take template kernels: the queue is a variable template of the
// parent's parameters, the persistent kernel and the function that runs a
// parent block are templates, and the host's launch names them with every
// template argument of the launched parent written out. A template kernel
// that launches itself in the same instantiation, with a block and dynamic
// shared memory given by its non-type parameter (also through a local,
// `Threads / warpSize`), runs its recursion in the persistent grid (the
// block is the host launch's argument, 64). A recursion into another
// instantiation cannot share the queue: refused.
// RUN: %launchopt --remove-launches=T1 %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --remove-launches=T2 %s -o %t.t2.cu 2> /dev/null
// RUN: %nvcc-compile %t.t2.cu

template <typename T> __global__ void add(T *d, int n, T amount) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += amount;
}

template <typename V> __global__ void parent(V *d, const int *len) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  add<<<(len[t] + 63) / 64, 64>>>(d + t * 1024, len[t], V(1));
}

template <int Threads> __global__ void halve(float *d, int n, int depth) {
  const int Warps = Threads / warpSize;
  extern __shared__ float perWarp[];
  __shared__ float s[Threads];
  s[threadIdx.x] = d[blockIdx.x * Threads + threadIdx.x];
  if (threadIdx.x % warpSize == 0)
    perWarp[threadIdx.x / warpSize] = s[threadIdx.x];
  __syncthreads();
  d[blockIdx.x * Threads + threadIdx.x] = s[Threads - 1 - threadIdx.x] + perWarp[Warps - 1];
  if (threadIdx.x == 0 && depth > 0)
    halve<Threads><<<n / Threads / 2, Threads, Warps * sizeof(float)>>>(d, n / 2, depth - 1);
}

template <int Threads> __global__ void widen(float *d, int depth) {
  d[threadIdx.x] += 1.0f;
  if (threadIdx.x == 0 && depth > 0)
    widen<Threads * 2><<<1, Threads * 2>>>(d, depth - 1);
}

void host(float *f, const int *len) {
  parent<<<2, 64>>>(f, len);
  halve<64><<<8, 64, 2 * sizeof(float)>>>(f, 1024, 3);
  widen<32><<<1, 32>>>(f, 1);
}

// REMARK: t1-t2-template.cu:25:3: remark: remove-launches applied to launch of 'add'
// REMARK: t1-t2-template.cu:38:5: remark: remove-launches applied to launch of 'halve'
// REMARK: t1-t2-template.cu:44:5: remark: not removed: the template kernel launches itself at line 44 with other template arguments (<Threads * 2>, not <Threads>): the persistent grid records a recursion in its own instantiation only

// CHECK: recorded by a persistent parent grid (T1/T2).
// CHECK-NEXT: template <typename T>
// CHECK-NEXT: struct __lo_grec_add {
// CHECK: the persistent parent grid of 'parent' (T1)
// CHECK: template <typename V>
// CHECK-NEXT: __device__ launchopt::persistent::Queue<__lo_grec_add<V>, LAUNCHOPT_PERSISTENT_QUEUE> __lo_pq_parent;
// CHECK: __lo_pblock_parent(V *d,
// CHECK: template <typename V>
// CHECK-NEXT: __global__ void __lo_persistent_parent(const dim3 __lo_parentGrid, V *d, const int *len)
// CHECK: launchopt::persistent::runRecorded(__lo_pq_parent<V>,
// CHECK: the persistent parent grid of 'halve' (T1)
// CHECK: template <int Threads>
// CHECK-NEXT: __device__ launchopt::persistent::Queue<__lo_grec_halve<Threads>, LAUNCHOPT_PERSISTENT_QUEUE> __lo_pq_halve;
// CHECK: launchopt::persistent::launch(__lo_persistent_parent<float>, parent<float>, __lo_pq_parent<float>,
// CHECK: launchopt::persistent::launch<true, true>(__lo_persistent_halve<64>, halve<64>, __lo_pq_halve<64>,
