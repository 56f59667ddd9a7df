// Children whose calls to functions reading the built-in index variables a
// shadow copy cannot follow are not aggregated, each with its reason.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks

__device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ int even(int k);
__device__ int odd(int k) { return k == 0 ? (int)threadIdx.x : even(k - 1); }
__device__ int even(int k) { return k == 0 ? (int)blockIdx.x : odd(k - 1); }
__device__ int pick(int v) { return v + threadIdx.x; }
__device__ float pick(float v) { return v + threadIdx.x; }

__global__ void grand(int v) {}

__global__ void mutual(int *d) { d[odd(3)] = 1; }
__global__ void in_launch(int *d) {
  if (d[0] == 0)
    grand<<<1, 1, 0, cudaStreamTailLaunch>>>(gid());
}
template <typename T>
__global__ void overloaded(T *d) { d[0] = pick(d[0]); }

__global__ void parent1(int *d) { mutual<<<1, 32>>>(d); }
__global__ void parent2(int *d) { in_launch<<<1, 32>>>(d); }
template <typename T>
__global__ void parent3(T *f) { overloaded<T><<<1, 32>>>(f); }

template __global__ void parent3<float>(float *);

// CHECK-DAG: not-callee-reads-builtins.cu:19:5: remark: not aggregated: the child is tail-launched: it must run after the whole parent grid
// CHECK-DAG: not-callee-reads-builtins.cu:24:35: remark: not aggregated: 'even' calls 'odd', which reads the built-in index variables, recursively
// CHECK-DAG: not-callee-reads-builtins.cu:25:35: remark: not aggregated: child calls 'gid', which reads the built-in index variables, inside a launch's configuration or arguments
// CHECK-DAG: not-callee-reads-builtins.cu:27:33: remark: not aggregated: child calls 'pick', which reads the built-in index variables, among overloads that the template's call leaves unresolved
