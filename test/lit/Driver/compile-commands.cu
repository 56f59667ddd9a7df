// -p reads compile_commands.json; nvcc-style flags in it are accepted.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: cp %s %t.dir/input.cu
// RUN: echo '[{"directory": "%t.dir", "file": "%t.dir/input.cu", "command": "nvcc -arch=sm_90 -rdc=true -DWIDTH=32 -c %t.dir/input.cu -o input.o"}]' > %t.dir/compile_commands.json
// RUN: %launchopt --threshold -p %t.dir %t.dir/input.cu -o %t.dir/out.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %nvcc-compile -DWIDTH=32 %t.dir/out.cu

__global__ void child(int *d, int n) {
  int i = blockIdx.x * WIDTH + threadIdx.x;
  if (i < n)
    d[i] = 0;
}
__global__ void parent(int *d, int n) { child<<<(n + WIDTH - 1) / WIDTH, WIDTH>>>(d, n); }

// CHECK: input.cu:14:41: remark: threshold applied to launch of 'child'
