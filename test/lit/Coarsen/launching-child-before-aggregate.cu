// A recursive child that writes a parameter runs, coarsened, in a per-block
// function, out of aggregation's reach. With --aggregate in the pipeline it
// is left uncoarsened, so aggregation takes its launches (an unguarded launch
// per original block dropped launches past the pending-launch limit on the
// GPU: test/corpus/mariani_silver under T+C+A block). Alone, or with a child
// whose body fits the loop, coarsening still applies.
// RUN: %launchopt --threshold --coarsen --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=TCA < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --coarsen %s -o %t-c.cu 2> %t-c.remarks
// RUN: %FileCheck %s --check-prefix=C < %t-c.remarks

__global__ void fill(int *out, int from, int value) {
  out[from + blockIdx.x * blockDim.x + threadIdx.x] = value;
}

__global__ void split(int *out, int from, int size, int depth) {
  from += size * blockIdx.x;
  if (threadIdx.x == 0) {
    if (depth == 0 || size <= 256)
      fill<<<size / 64, 64>>>(out, from, depth);
    else
      split<<<2, blockDim.x>>>(out, from, size / 2, depth - 1);
  }
}

int main() {
  int *out;
  cudaMalloc(&out, sizeof(int) << 16);
  split<<<4, 32>>>(out, 0, 1 << 14, 6);
  cudaDeviceSynchronize();
}

// TCA: :[[@LINE-13]]:7: remark: coarsen applied to launch of 'fill'
// TCA: :[[@LINE-12]]:7: remark: not coarsened: the child launches kernels and returns early or writes a parameter: coarsened, its body would run in a per-block function, where --aggregate cannot reach its launches
// TCA: :[[@LINE-15]]:7: remark: aggregate applied to launch of '__lo_coarse_fill'
// TCA: :[[@LINE-14]]:7: remark: aggregate applied to launch of 'split'
// C: :[[@LINE-17]]:7: remark: coarsen applied to launch of 'fill'
// C: :[[@LINE-16]]:7: remark: coarsen applied to launch of 'split' ({{.*}}loop-body: a per-block function
