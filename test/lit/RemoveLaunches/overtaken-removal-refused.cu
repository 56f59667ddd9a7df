// T1, T2 and T3 run a removed child after the parent thread goes on. When a
// later launch of the thread into the same stream stays a launch (here T3
// refuses a second child kernel in one block's list), it would overtake the
// removed child, so the earlier launch is left too. T4 runs the child at
// once, in order, and keeps both. (Found on the GPU: test/gpu's
// ordered_stream under R-T3.)
// RUN: %launchopt --remove-launches=T3 %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=T3 < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --remove-launches=T4 %s -o %t4.cu 2> %t4.remarks
// RUN: %FileCheck %s --check-prefix=T4 < %t4.remarks

__global__ void produce(unsigned *values, int size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size)
    values[i] = i;
}

__global__ void consume(const unsigned *values, int size, unsigned *sum) {
  unsigned s = 0;
  for (int i = threadIdx.x; i < size; i += blockDim.x)
    s += values[i];
  atomicAdd(sum, s);
}

__global__ void parents(unsigned *values, unsigned *sums, int size) {
  unsigned *mine = values + size * threadIdx.x;
  produce<<<(size + 63) / 64, 64>>>(mine, size);
  consume<<<1, 32>>>(mine, size, sums + threadIdx.x);
}

// T3: overtaken-removal-refused.cu:28:3: remark: not removed: the launch of 'consume' at line 29, which may follow this one into the same stream, is not removed: it would run before this child, which T3 (CKi -> PBi) runs later
// T3: overtaken-removal-refused.cu:29:3: remark: not removed:

// T4: overtaken-removal-refused.cu:28:3: remark: remove-launches applied to launch of 'produce'
// T4: overtaken-removal-refused.cu:29:3: remark: remove-launches applied to launch of 'consume'
