// A launch written in a lambda may run any number of times, wherever the
// closure is called: it counts as in a loop for the stream's order, the
// order guard cannot reach the parent's flag from it (a copy, or no capture
// at all), aggregation and T1-T3 leave it (the closure may run after the
// parent's block gathered its launches), and T4 takes it (the calling thread
// runs the child). Every output compiles.
// RUN: %launchopt --list-launches %s | %FileCheck %s --check-prefix=LIST
// RUN: %launchopt --threshold %s -o %t.t.cu 2> %t.t.remarks
// RUN: %FileCheck %s --check-prefix=THRESHOLD < %t.t.remarks
// RUN: %nvcc-compile %t.t.cu
// RUN: %launchopt --spawn %s -o %t.s.cu 2> %t.s.remarks
// RUN: %FileCheck %s --check-prefix=SPAWN < %t.s.remarks
// RUN: %nvcc-compile %t.s.cu
// RUN: %launchopt --aggregate=block %s -o %t.a.cu 2> %t.a.remarks
// RUN: %FileCheck %s --check-prefix=AGGREGATE < %t.a.remarks
// RUN: %launchopt --remove-launches=T3 %s -o %t.r3.cu 2> %t.r3.remarks
// RUN: %FileCheck %s --check-prefix=T3 < %t.r3.remarks
// RUN: %launchopt --remove-launches=T4 %s -o %t.r4.cu 2> %t.r4.remarks
// RUN: %FileCheck %s --check-prefix=T4 < %t.r4.remarks
// RUN: %nvcc-compile %t.r4.cu

__global__ void child(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] += 1;
}

template <typename F> __device__ void twice(F f) {
  f();
  f();
}

// The helper runs the closure twice: the second child must not overtake the
// first, which a serialized one would do once the first is launched.
__global__ void copied(int *a, int n) {
  int *mine = a + threadIdx.x * n;
  twice([=] { child<<<(n + 31) / 32, 32>>>(mine, n); });
}

// The same launch outside a lambda is thresholded: one launch per thread.
__global__ void plain(int *a, int n) {
  child<<<(n + 31) / 32, 32>>>(a + threadIdx.x * n, n);
}

// LIST: launch #1 at {{.*}}launch-in-lambda.cu:37:
// LIST: context: in lambda,
// LIST: launch #2 at {{.*}}launch-in-lambda.cu:42:
// LIST: context: not in loop,

// THRESHOLD: launch-in-lambda.cu:37:{{[0-9]+}}: remark: not thresholded: {{.*}}in a lambda, which may run it several times{{.*}}; and this launch is written in a lambda, where the flag that keeps the stream's order is out of reach
// THRESHOLD: launch-in-lambda.cu:42:3: remark: threshold applied to launch of 'child'

// SPAWN: launch-in-lambda.cu:37:{{[0-9]+}}: remark: not spawn-controlled: {{.*}}this launch is written in a lambda, where the flag that keeps the stream's order is out of reach
// SPAWN: launch-in-lambda.cu:42:3: remark: spawn applied to launch of 'child'

// AGGREGATE: launch-in-lambda.cu:37:{{[0-9]+}}: remark: not aggregated: the launch is written in a lambda, which may run it after the parent's block has gathered its launches, or in another grid
// AGGREGATE: launch-in-lambda.cu:42:3: remark: aggregate applied to launch of 'child'

// T3: launch-in-lambda.cu:37:{{[0-9]+}}: remark: not removed: the launch is written in a lambda, which may run it outside the parent's block; only T4, which runs the child in the calling thread, takes it
// T4: launch-in-lambda.cu:37:{{[0-9]+}}: remark: remove-launches applied to launch of 'child'
