// T1/T2 leave what the persistent grid cannot run with the reason.
// RUN: %launchopt --remove-launches=T2 %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
#include <cuda_runtime.h>

__global__ void leaf(int *out) { out[threadIdx.x] = 1; }

__global__ void tile(int *out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[31 - threadIdx.x];
}

// CHECK-DAG: :[[@LINE+1]]:37: remark: not removed: the parent is launched from the device (line {{[0-9]+}}): only the host can launch a cooperative persistent grid
__global__ void inner(int **outs) { leaf<<<1, 32>>>(outs[threadIdx.x]); }

// A child whose threads work together runs as a block of the grid only with
// the grid's (the parent's) block shape.
// CHECK-DAG: :[[@LINE+1]]:38: remark: not removed: the child's threads work together, so a block of the persistent grid (32 x 1 x 1 threads, the parent's) runs a child block only of the same shape; the launch at line [[#@LINE+1]] has blocks of 16 x 1 x 1 threads
__global__ void shared(int **outs) { tile<<<2, 16>>>(outs[threadIdx.x]); }

__global__ void other(int *out) { out[threadIdx.x] = 2; }

// Two children launched one after the other into the thread's ordered
// stream: the grid would run them in any order.
__global__ void twice(int **outs) {
  // CHECK-DAG: :[[@LINE+1]]:3: remark: not removed: the parent's launch (line [[#@LINE+3]]) follows another launch of its thread into an ordered stream, not proved independent: {{.*}}; the persistent grid runs recorded launches in any order
  leaf<<<1, 32>>>(outs[threadIdx.x]);
  // CHECK-DAG: :[[@LINE+1]]:3: remark: not removed: the launch (line [[#@LINE+1]]) follows another launch of its thread into an ordered stream, not proved independent: {{.*}}; the persistent grid runs recorded launches in any order
  other<<<1, 32>>>(outs[threadIdx.x] + 32);
}

// CHECK-DAG: :[[@LINE+1]]:37: remark: not removed: the parent is not launched in this file: its launches could not be made persistent
__global__ void alone(int **outs) { leaf<<<1, 32>>>(outs[threadIdx.x]); }

// A child that launches (a nested child): its copies record those launches
// too (t1-t2-nested-children.cu).
// CHECK-DAG: :[[@LINE+1]]:38: remark: remove-launches applied to launch of 'inner' (function: __lo_persistent_outer, nested-launches: the child launches (line 16, of 'leaf')
__global__ void outer(int ***outs) { inner<<<1, 32>>>(outs[threadIdx.x]); }

// A child that launches itself twice into its block's stream: the second
// half runs after the first in the original, in any order in the grid.
__global__ void halves(int *out, int n) {
  out[threadIdx.x] += n;
  if (threadIdx.x == 0 && n > 1) {
    halves<<<1, 32>>>(out, n / 2);
    halves<<<1, 32>>>(out + n / 2, n / 2);
  }
}
// CHECK-DAG: :[[@LINE+1]]:39: remark: not removed: the child's launch of itself (line [[#@LINE-3]]) follows another launch of its thread into an ordered stream, not proved independent: {{.*}}; the persistent grid runs recorded launches in any order (pass --assume-independent-children if they do not depend on each other)
__global__ void sortAll(int **outs) { halves<<<1, 32>>>(outs[threadIdx.x], 64); }

// A child that tail-launches itself runs after its whole grid, and its
// threads cannot be run by one parent thread, as a full queue would.
__global__ void chain(int *out, int n) {
  out[threadIdx.x] += n;
  if (threadIdx.x == 0 && n > 1)
    chain<<<1, 32, 0, cudaStreamTailLaunch>>>(out, n - 1);
}
// CHECK-DAG: :[[@LINE+1]]:40: remark: not removed: T1/T2 run the child's blocks in the persistent grid's: child tail-launches kernels
__global__ void chainAll(int **outs) { chain<<<1, 32>>>(outs[threadIdx.x], 8); }

void run(int **outs, int ***nested) {
  shared<<<1, 32>>>(outs);
  twice<<<1, 32>>>(outs);
  outer<<<1, 32>>>(nested);
  sortAll<<<1, 32>>>(outs);
  chainAll<<<1, 32>>>(outs);
}
