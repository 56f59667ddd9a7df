// A launch into the default stream in a loop is left alone by default: a
// serialized child could overtake the children launched before it.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

__global__ void parent(int *d, const int *sizes, int k) {
  for (int j = 0; j < k; ++j)
    child<<<(sizes[j] + 31) / 32, 32>>>(d + j, sizes[j]);
}

// CHECK: launch-in-loop-refused.cu:15:5: remark: not thresholded: the parent thread launches other children into the same stream before this one (in a loop or earlier); a serialized child could run before them (pass --assume-independent-children if they do not depend on each other)
