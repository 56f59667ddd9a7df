// The host launch of a top-level parent tells the record pool what the
// parent's own sites take (launchopt::ParentDemand): here one site where every
// parent thread launches, whose arguments (all different per thread: a
// pointer, an int, a double) take 24 bytes, 32 in the pool's 16-byte pieces,
// and one site where thread 0 of each block launches, whose arguments are the
// same across the block scope and take no per-launch bytes beyond the
// smallest piece (the children are declared independent, so that both sites
// are taken). The parent's stream, grid and block are evaluated once.
// RUN: %launchopt --aggregate=block --assume-independent-children %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

__global__ void wide(float *d, int n, double scale) {
  if (threadIdx.x < n)
    d[threadIdx.x] *= scale;
}

__global__ void narrow(float *d, unsigned block) { d[block] += 1; }

__global__ void parent(float *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  wide<<<1, 32>>>(d + i, i, i * 0.5);
  if (threadIdx.x == 0)
    narrow<<<1, 1>>>(d, blockIdx.x);
}

int blocksFor(int n);

void run(float *d, int n, cudaStream_t s) {
  parent<<<blocksFor(n), 128, 0, s>>>(d);
}

// CHECK-LABEL: void run(float *d, int n, cudaStream_t s) {
// CHECK-NEXT: { cudaStream_t __lo_hstream = s; dim3 __lo_hgrid = blocksFor(n), __lo_hblock = 128; launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {1, 32, 1, 16, 1}); parent<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(d); }
