// A macro that is given the kernel and writes nothing but its launch, the
// shape of launch wrappers in library code: the invocation is rewritten
// whole, from the operands as written at the invocation (the parentheses
// the macro's body puts around them kept). A macro that writes more than
// the launch stays as written, with the reason; so does a launch passed to
// a macro that writes more around it. A macro that writes exactly the
// launch it is given is the launch.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --remove-launches=T4 %s -o %t.t4.cu 2>/dev/null
// RUN: %nvcc-compile %t.t4.cu
// RUN: %launchopt --spawn %s -o %t.spawn.cu 2>/dev/null
// RUN: %nvcc-compile %t.spawn.cu

#define LAUNCH(kernel, blocks, threads, ...) kernel<<<(blocks), (threads)>>>(__VA_ARGS__)
#define LAUNCH_CHECKED(kernel, blocks, threads, ...)                                           \
  do {                                                                                         \
    kernel<<<blocks, threads>>>(__VA_ARGS__);                                                  \
    if (cudaGetLastError() != cudaSuccess)                                                     \
      *failures += 1;                                                                          \
  } while (0)
#define SAME(...) __VA_ARGS__
#define COUNTED(...) (++*failures, __VA_ARGS__)

namespace work {
__global__ void add(int *d, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += v;
}
} // namespace work

__global__ void wrapped(int *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  LAUNCH(work::add, (n + 31) / 32, 32, d + 64 * threadIdx.x, n, 1);
}

// CHECK-LABEL: __global__ void wrapped(int *d, const int *sizes) {
// CHECK: { // launchopt: thresholded launch of 'add'
// CHECK-NEXT: const dim3 __lo_grid1 = ((n + 31) / 32);
// CHECK-NEXT: const dim3 __lo_block1 = (32);
// CHECK: work::add<<<__lo_grid1, __lo_block1>>>(d + 64 * threadIdx.x, n, 1);
// CHECK-NEXT: else
// CHECK-NEXT: work::__lo_serial_add(d + 64 * threadIdx.x, n, 1, __lo_grid1, __lo_block1);
// CHECK-NOT: LAUNCH(

__global__ void checked(int *d, const int *sizes, int *failures) {
  int n = sizes[threadIdx.x];
  LAUNCH_CHECKED(work::add, (n + 31) / 32, 32, d, n, 2);
}

// CHECK-LABEL: __global__ void checked(
// CHECK-NEXT: int n = sizes[threadIdx.x];
// CHECK-NEXT: LAUNCH_CHECKED(work::add, (n + 31) / 32, 32, d, n, 2);

__global__ void same(int *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  SAME(work::add<<<(n + 31) / 32, 32>>>(d, n, 3));
}

// CHECK-LABEL: __global__ void same(
// CHECK: const dim3 __lo_grid3 = (n + 31) / 32;
// CHECK: work::add<<<__lo_grid3, __lo_block3>>>(d, n, 3);

__global__ void counted(int *d, const int *sizes, int *failures) {
  int n = sizes[threadIdx.x];
  COUNTED(work::add<<<(n + 31) / 32, 32>>>(d, n, 4));
}

// CHECK-LABEL: __global__ void counted(
// CHECK-NEXT: int n = sizes[threadIdx.x];
// CHECK-NEXT: COUNTED(work::add<<<(n + 31) / 32, 32>>>(d, n, 4));

// REMARK: launch-macro-argument.cu:37:3: remark: threshold applied to launch of 'add'
// REMARK: launch-macro-argument.cu:51:3: remark: not thresholded: the launch is written inside a macro expansion that holds more than the launch, or in a macro's argument
// REMARK: launch-macro-argument.cu:60:3: remark: threshold applied to launch of 'add'
// REMARK: launch-macro-argument.cu:69:3: remark: not thresholded: the launch is not a statement of its own
