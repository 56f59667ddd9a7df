// Children whose calls to functions reading the built-in index variables a
// shadow copy cannot follow are not coarsened, each with its reason.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks

namespace ids {
__device__ int gid();
__device__ int local() { return threadIdx.x; }
} // namespace ids
__device__ int ids::gid() { return blockIdx.x * blockDim.x + threadIdx.x; }

struct Index {
  int v;
};
__device__ int operator+(Index a, Index b) { return a.v + b.v + threadIdx.x; }

__global__ void out_of_namespace(int *d) { d[ids::gid()] = 1; }
__global__ void operator_call(int *d) { d[Index{1} + Index{2}] = 1; }
__global__ void using_declaration(int *d) {
  using ids::local;
  d[local()] = 1;
}

__global__ void parent(int *d) {
  if (threadIdx.x == 0)
    out_of_namespace<<<4, 32>>>(d);
  else if (threadIdx.x == 1)
    operator_call<<<4, 32>>>(d);
  else
    using_declaration<<<4, 32>>>(d);
}

// CHECK: not-callee-reads-builtins.cu:27:5: remark: not coarsened: child calls 'gid', which reads the built-in index variables and is defined out of its namespace
// CHECK: not-callee-reads-builtins.cu:29:5: remark: not coarsened: child calls 'operator+', which reads the built-in index variables, as an operator
// CHECK: not-callee-reads-builtins.cu:31:5: remark: not coarsened: child calls 'local', which reads the built-in index variables, through a using-declaration
