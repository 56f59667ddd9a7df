// A template kernel given to a launch macro with its arguments written
// (`L1(child<float>, ...)`): Clang 19 drops a device-side launch of a
// template-id, and the macro hides the `<<<` after the name. launchopt
// recovers it as it does a launch written out, and rewrites the invocation.
// The body's operands that are not the macro's arguments are printed from
// the AST (`cudaStreamFireAndForget` as its value).
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --remove-launches=T4 %s -o %t.t4.cu 2>/dev/null
// RUN: %nvcc-plain-compile %t.t4.cu

#define L1(k, n, ...) k<<<((n) + 31) / 32, 32>>>(__VA_ARGS__)
#define L2(k, g, b, ...) k<<<(unsigned)(g), b, 0, cudaStreamFireAndForget>>>(__VA_ARGS__)

template <typename T>
__global__ void child(T *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += T(1);
}

struct Tile {
  int len;
  int start;
};

__global__ void parent(float *d, const Tile *tiles) {
  Tile t = tiles[threadIdx.x];
  L1(child<float>, t.len - t.start, d + t.start, t.len - t.start);
}

// CHECK-LABEL: __global__ void parent(
// CHECK: const dim3 __lo_grid1 = (((t.len - t.start) + 31) / 32);
// CHECK-NEXT: const dim3 __lo_block1 = (32);
// CHECK: child<float><<<__lo_grid1, __lo_block1>>>(d + t.start, t.len - t.start);
// CHECK: __lo_serial_child<float>(d + t.start, t.len - t.start, __lo_grid1, __lo_block1);
// CHECK-NOT: L1(

__global__ void parent2(double *d, const Tile *tiles) {
  Tile t = tiles[threadIdx.x];
  L2(child<double>, (t.len + 63) / 64, 64, d, t.len);
}

// CHECK-LABEL: __global__ void parent2(
// CHECK: const dim3 __lo_grid2 = ((unsigned int)((t.len + 63) / 64));
// CHECK-NEXT: const dim3 __lo_block2 = 64;
// CHECK: child<double><<<__lo_grid2, __lo_block2, (0), (((cudaStream_t)4))>>>(d, t.len);
// CHECK-NOT: launchopt:recovered

// REMARK: launch-macro-template.cu:31:3: remark: threshold applied to launch of 'child'
// REMARK: launch-macro-template.cu:43:3: remark: threshold applied to launch of 'child'
