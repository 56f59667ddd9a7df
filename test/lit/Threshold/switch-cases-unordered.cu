// Launches in the cases of a switch that end in break (or return): no thread
// makes two of them, so none waits on an order flag. A case that falls
// through into the next keeps the order of the two.
// RUN: %launchopt --threshold %s -o %t.cu 2> /dev/null
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

__global__ void add(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

struct Task {
  int op, n;
  float *x;
};

__global__ void dispatch(const Task *tasks, int count) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count)
    return;
  Task task = tasks[t];
  switch (task.op) {
  case 0:
    add<<<(task.n + 127) / 128, 128>>>(task.x, task.n);
    break;
  case 1: {
    scale<<<(task.n + 127) / 128, 128>>>(task.x, task.n);
    break;
  }
  default:
    return;
  }
}

__global__ void dispatchFallingThrough(const Task *tasks, int count) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Task task = tasks[t];
  switch (task.op) {
  case 0:
    add<<<(task.n + 127) / 128, 128>>>(task.x, task.n);
  case 1:
    scale<<<(task.n + 127) / 128, 128>>>(task.x, task.n);
    break;
  }
}

// CHECK-LABEL: __global__ void dispatch(
// CHECK-NOT: __lo_launchedInOrder
// CHECK: __global__ void dispatchFallingThrough(
// CHECK-NEXT: bool __lo_launchedInOrder = false;
// CHECK: __lo_launchedInOrder = true;
// CHECK: if (__lo_threads4 >= LAUNCHOPT_THRESHOLD || !__lo_fits4 || __lo_launchedInOrder)
