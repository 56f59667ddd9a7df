// Extraction: read/write sets, stencil offsets (thread load, halo radius),
// arguments resolved to allocations, expandable arrays.
// RUN: %launchopt fuse %s --search=none --quiet --write-problem=- --data-dot=%t.dot -o %t.cu
// RUN: %launchopt fuse %s --search=none --quiet --write-problem=- -o %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=DOT < %t.dot

__global__ void smooth(const float *in, float *out, int nx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int c = j * nx + i;
  out[c] = in[c - 1] + in[c + 1] + in[c - 2 * nx] + in[c];
}
__global__ void scale(float *x, float s) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  x[c] *= s;
}
__global__ void overwrite(float *x, const float *y) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  x[c] = y[c];
}

void run(float *a, float *b, int nx) {
  dim3 block(32, 8), grid(4, 4);
  float *alias = b;
  smooth<<<grid, block>>>(a, alias, nx);
  scale<<<grid, block>>>(b, 2.0f);
  overwrite<<<grid, block>>>(b, a);
}

// CHECK: "name": "a"
// CHECK: "name": "b"
// CHECK: "block": [
// CHECK-NEXT: 32,
// CHECK-NEXT: 8,
// CHECK: "launch_config": "grid, block"
// CHECK-NEXT: "name": "smooth"
// CHECK: "access": "read",
// CHECK-NEXT: "array": "a",
// CHECK-NEXT: "halo_radius": 2,
// CHECK-NEXT: "thread_load": 4
// CHECK: "access": "write",
// CHECK-NEXT: "array": "b",
// CHECK-NEXT: "halo_radius": 0,
// CHECK: "name": "scale"
// CHECK: "access": "read-write",
// CHECK-NEXT: "array": "b",
// CHECK: "name": "overwrite"
// CHECK: "access": "write",
// CHECK-NEXT: "array": "b",

// DOT: a1 [shape=diamond, style=filled, fillcolor=lightblue, label="b", tooltip="expandable read-write"];
// DOT: a0 -> k0 [label="thread load 4, radius 2"];
