// Launches in the branches of one if / else if / else (Mariani-Silver's
// fill, split and per-pixel children): no thread makes two of them in one
// run of the parent, so none waits on an order flag and none is refused for
// following another. A launch after the if follows both branches' launches
// and is guarded; so is the next turn of a loop around the branches.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void fill(int *out, int v) { out[blockIdx.x * blockDim.x + threadIdx.x] = v; }
__global__ void pixels(int *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; }

__global__ void region(int *out, int size, const int *uniform) {
  if (threadIdx.x != 0)
    return;
  int r = blockIdx.x;
  if (uniform[r] >= 0) {
    fill<<<size / 32, 32>>>(out + r * size, uniform[r]);
  } else if (size > 16) {
    region<<<4, 32>>>(out + r * size, size / 4, uniform + 4 * r);
  } else {
    pixels<<<1, size>>>(out + r * size);
  }
}

__global__ void regionThenMark(int *out, int size, const int *uniform) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (uniform[r] >= 0)
    fill<<<size / 32, 32>>>(out + r * size, uniform[r]);
  else
    pixels<<<1, size>>>(out + r * size);
  fill<<<1, 32>>>(out, -1);
}

__global__ void regionsInTurn(int *out, int size, const int *uniform, int turns) {
  for (int t = 0; t < turns; ++t) {
    if (uniform[t] >= 0)
      fill<<<size / 32, 32>>>(out + t * size, uniform[t]);
    else
      pixels<<<1, size>>>(out + t * size);
  }
}

// CHECK-LABEL: __global__ void region(
// CHECK-NOT: __lo_launchedInOrder
// CHECK: __global__ void regionThenMark(
// CHECK-NEXT: bool __lo_launchedInOrder = false;
// CHECK: if (__lo_threads6 >= LAUNCHOPT_THRESHOLD || __lo_launchedInOrder)
// CHECK: __global__ void regionsInTurn(
// CHECK-NEXT: bool __lo_launchedInOrder = false;
// CHECK: if (__lo_threads7 >= LAUNCHOPT_THRESHOLD || !__lo_fits7 || __lo_launchedInOrder) {
// CHECK: if (__lo_threads8 >= LAUNCHOPT_THRESHOLD || __lo_launchedInOrder) {

// REMARK: exclusive-branches-unordered.cu:19:5: remark: threshold applied to launch of 'fill'
// REMARK: exclusive-branches-unordered.cu:21:5: remark: threshold applied to launch of 'region'
// REMARK: exclusive-branches-unordered.cu:23:5: remark: threshold applied to launch of 'pixels'
