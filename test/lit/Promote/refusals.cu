// Launches promotion leaves as written, each with the obstacle in its remark.
// RUN: %launchopt --promote %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: grep -v "^// [A-Z0-9-]*:" %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

__device__ int sink;

// Work after the launch: the successor could not be released at the end.
__global__ void not_tail(int *data, int step) {
  if (threadIdx.x == 0 && step < 10)
    not_tail<<<1, 64>>>(data, step + 1);
  data[threadIdx.x] += step;
}

// Every thread launches.
__global__ void every_thread(int *data, int step) {
  data[threadIdx.x] += step;
  if (step < 10)
    every_thread<<<1, 64>>>(data, step + 1);
}

// Several successors per block.
__global__ void in_loop(int *data, int step) {
  data[threadIdx.x] += step;
  if (threadIdx.x == 0)
    for (int k = 0; k < 2 && step < 3; ++k)
      in_loop<<<1, 64>>>(data, step + 1);
}

__global__ void leaf(int *data) { data[threadIdx.x] += 1; }

// The launch of another kernel.
__global__ void other_kernel(int *data) {
  data[threadIdx.x] += 1;
  if (threadIdx.x == 0)
    leaf<<<1, 64>>>(data);
}

// A successor of several blocks.
__global__ void wide(int *data, int step) {
  data[blockIdx.x * 64 + threadIdx.x] += step;
  if (threadIdx.x == 0 && blockIdx.x == 0 && step < 10)
    wide<<<2, 64>>>(data, step + 1);
}

// A block size computed in the body.
__global__ void late_block(int *data, int step) {
  int threads = data[0] > 0 ? 64 : 32;
  data[threadIdx.x] += step;
  if (threadIdx.x == 0 && step < 10)
    late_block<<<1, threads>>>(data, step + 1);
}

// Two launches: the successor would overtake the first child.
__global__ void two_launches(int *data, int step) {
  if (threadIdx.x == 0)
    leaf<<<1, 64>>>(data);
  data[threadIdx.x] += step;
  if (threadIdx.x == 0 && step < 10)
    two_launches<<<1, 64>>>(data, step + 1);
}

// Tail-launched: it runs after the whole parent anyway.
__global__ void tail_stream(int *data, int step) {
  data[threadIdx.x] += step;
  if (threadIdx.x == 0 && step < 10)
    tail_stream<<<1, 64, 0, cudaStreamTailLaunch>>>(data, step + 1);
}

// A parameter written as an array: its declaration cannot be a field of the
// buffer of postponed arguments.
__global__ void array_parameter(int data[], int step) {
  data[threadIdx.x] += step;
  if (threadIdx.x == 0 && step < 10)
    array_parameter<<<1, 64>>>(data, step + 1);
}

// REMARK: refusals.cu:12:5: remark: not promoted: the launch is not in tail position: a statement at line 13 runs after it
// REMARK: refusals.cu:20:5: remark: not promoted: the launch may be reached by more than one thread of a block
// REMARK: refusals.cu:28:7: remark: not promoted: the launch is in a loop
// REMARK: refusals.cu:37:5: remark: not promoted: the kernel launches another kernel
// REMARK: refusals.cu:44:5: remark: not promoted: the successor's grid is not a single block
// REMARK: refusals.cu:52:5: remark: not promoted: the launch's block size reads 'threads', which is not known at the kernel's start
// REMARK: refusals.cu:58:5: remark: not promoted: the kernel launches another kernel
// REMARK: refusals.cu:61:5: remark: not promoted: the kernel has other launches besides this one
// REMARK: refusals.cu:68:5: remark: not promoted: the successor is launched into a tail-launch stream
// REMARK: refusals.cu:76:5: remark: not promoted: the parameter 'data' cannot be stored for the successor (a reference or an array)

// Nothing was promoted: no runtime, no generated code.
// CHECK-NOT: promotion.cuh
// CHECK-NOT: __lo_promote
