// Children calling functions that read the built-in index variables in ways
// a shadow copy cannot follow are left untouched, each with its reason.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ int depth(int k) { return k == 0 ? (int)threadIdx.x : depth(k - 1); }
__device__ int lane(int width = 32) { return threadIdx.x % width; }
struct Thread {
  __device__ int operator()() const { return threadIdx.x; }
};
#define GID gid()

__global__ void through_pointer(int *d) {
  int (*f)() = gid;
  d[f()] = 1;
}
__global__ void recursive(int *d) { d[depth(2)] = 1; }
__global__ void default_argument(int *d) { d[lane()] = 1; }
__global__ void member(int *d) { d[Thread()()] = 1; }
__global__ void in_macro(int *d) { d[GID] = 1; }

__global__ void parent(int *d, int n) {
  if (threadIdx.x == 0)
    through_pointer<<<(n + 31) / 32, 32>>>(d);
  else if (threadIdx.x == 1)
    recursive<<<(n + 31) / 32, 32>>>(d);
  else if (threadIdx.x == 2)
    default_argument<<<(n + 31) / 32, 32>>>(d);
  else if (threadIdx.x == 3)
    member<<<(n + 31) / 32, 32>>>(d);
  else
    in_macro<<<(n + 31) / 32, 32>>>(d);
}

// CHECK: not-callee-reads-builtins.cu:25:5: remark: not thresholded: child calls 'gid', which reads the built-in index variables, through a pointer or reference to it
// CHECK: not-callee-reads-builtins.cu:27:5: remark: not thresholded: 'depth' calls 'depth', which reads the built-in index variables, recursively
// CHECK: not-callee-reads-builtins.cu:29:5: remark: not thresholded: child calls 'lane', which reads the built-in index variables, relying on default arguments
// CHECK: not-callee-reads-builtins.cu:31:5: remark: not thresholded: child calls 'operator()', which reads the built-in index variables, as an operator
// CHECK: not-callee-reads-builtins.cu:33:5: remark: not thresholded: child calls 'gid', which reads the built-in index variables, inside a macro
