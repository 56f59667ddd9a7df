// Compiler flags after `--` reach the parser: WIDTH comes from -D.
// RUN: %launchopt --threshold %s -o %t.cu -- -DWIDTH=64 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %nvcc-compile -DWIDTH=64 %t.cu
// RUN: %not %launchopt --threshold %s -o %t.fail.cu 2> /dev/null

__global__ void child(int *d, int n) {
  int i = blockIdx.x * WIDTH + threadIdx.x;
  if (i < n)
    d[i] = 0;
}
__global__ void parent(int *d, int n) { child<<<(n + WIDTH - 1) / WIDTH, WIDTH>>>(d, n); }

// CHECK: flags-after-dashdash.cu:12:41: remark: threshold applied to launch of 'child'
