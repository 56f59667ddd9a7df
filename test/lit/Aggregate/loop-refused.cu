// A launch in a loop into the default stream is not aggregated by default:
// the children of one thread would no longer run in order.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__global__ void child(float *d, int k) { d[k * blockDim.x + threadIdx.x] = k; }

__global__ void parent(float *d, int m) {
  for (int k = 0; k < m; ++k)
    child<<<1, 32>>>(d, k);
}

// CHECK: loop-refused.cu:10:5: remark: not aggregated: the parent thread launches other children into the same stream before this one (in a loop or earlier); aggregating could reorder them (pass --assume-independent-children if they do not depend on each other)
