// A recursive kernel whose own launch is left as written (tail-launched) while
// its launch of another child is aggregated: its body moves into the part
// function, which still launches the kernel itself, so the part function is
// declared before the kernel and defined after it (found by launchopt-dpgen,
// program 7; before, nvcc said: identifier "walk" is undefined).
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void leaf(int *out, int base) { atomicAdd(&out[base + threadIdx.x], 1); }

__global__ void walk(int *out, int depth) {
  if (threadIdx.x == 0)
    leaf<<<1, 32>>>(out, depth * 32);
  if (depth > 0 && threadIdx.x == 0)
    walk<<<1, 32, 0, cudaStreamTailLaunch>>>(out, depth - 1);
}

// CHECK-LABEL: static __device__ void __lo_part_walk(int *out, int depth,
// CHECK: {{.*}});{{$}}
// CHECK-LABEL: __global__ void walk(int *out, int depth) {
// CHECK-LABEL: static __device__ void __lo_part_walk(int *out, int depth,
// CHECK: walk<<<1, 32, 0, cudaStreamTailLaunch>>>(out, depth - 1);

// REMARK: recursive-self-launch-left.cu:15:5: remark: aggregate applied to launch of 'leaf'
// REMARK: recursive-self-launch-left.cu:17:5: remark: not aggregated: the child is tail-launched
