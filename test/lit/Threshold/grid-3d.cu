// A 3D child grid written in the launch: every component's N is bound once.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void fill(float *v, int w, int h, int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < w && y < h && z < d)
    v[(z * h + y) * w + x] = 1.0f;
}

__global__ void parent(float *v, const int *dims) {
  const int *s = dims + 3 * threadIdx.x;
  fill<<<dim3((s[0] + 7) / 8, (s[1] + 7) / 8, (s[2] + 3) / 4), dim3(8, 8, 4)>>>(v, s[0], s[1], s[2]);
}

// CHECK-LABEL: __global__ void parent(
// CHECK: const auto __lo_n1_x = (s[0]);
// CHECK-NEXT: const auto __lo_n1_y = (s[1]);
// CHECK-NEXT: const auto __lo_n1_z = (s[2]);
// CHECK-NEXT: const dim3 __lo_grid1 = dim3((__lo_n1_x + 7) / 8, (__lo_n1_y + 7) / 8, (__lo_n1_z + 3) / 4);
// CHECK-NEXT: const dim3 __lo_block1 = dim3(8, 8, 4);
// CHECK-NEXT: const long long __lo_threads1 = (long long)(__lo_n1_x) * (long long)(__lo_n1_y) * (long long)(__lo_n1_z);
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK-NEXT: fill<<<__lo_grid1, __lo_block1>>>(v, s[0], s[1], s[2]);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_fill(v, s[0], s[1], s[2], __lo_grid1, __lo_block1);

// REMARK: grid-3d.cu:17:3: remark: threshold applied to launch of 'fill'
// REMARK-SAME: threads: x: s[0] ((N + c)/b); y: s[1] ((N + c)/b); z: s[2] ((N + c)/b)
