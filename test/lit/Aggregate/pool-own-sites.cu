// The last field of launchopt::ParentDemand says whether a parent's launches
// take nothing from the record pool beyond its own sites' records, so that
// the runtime may skip its pool reset while the pool has room: 1 for a
// parent whose children launch nothing (`leafParent`, and `middle` when the
// host launches it itself), 0 for a parent whose child aggregates launches
// of its own (`outer` launches `middle`, which launches `leaf`).
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

__global__ void leaf(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

__global__ void middle(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  leaf<<<1, 32>>>(d + 32 * i, n);
}

__global__ void outer(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  middle<<<1, 32>>>(d + 1024 * i, n);
}

__global__ void leafParent(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  leaf<<<1, 32>>>(d + 32 * i, n);
}

void run(float *d, int n) {
  outer<<<4, 64>>>(d, n);
  middle<<<4, 64>>>(d, n);
  leafParent<<<4, 64>>>(d, n);
}

// CHECK-LABEL: void run(float *d, int n) {
// CHECK-NEXT: launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {1, 16, 0, 0, 0}); outer<<<
// CHECK-NEXT: launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {1, 16, 0, 0, 1}); middle<<<
// CHECK-NEXT: launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {1, 16, 0, 0, 1}); leafParent<<<
