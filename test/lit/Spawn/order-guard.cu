// Spawn keeps a stream's order the way thresholding does: a launch that may
// follow others of its thread into one stream is serialized only while the
// thread has launched none of them (the flag then forces the controller to
// launch), and the launches before it set the flag when a launch is made.
// After thresholding (S-TCA) the flag thresholding declared is reused (a
// second declaration would not compile).
// RUN: %launchopt --spawn %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --threshold --spawn --coarsen --aggregate=block %s -o %t.stca.cu 2> /dev/null
// RUN: %nvcc-compile %t.stca.cu

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

// CHECK-LABEL: __global__ void parents(
// CHECK-NEXT: bool __lo_launchedInOrder = false; // launchopt: this thread launched into an ordered stream
// CHECK: launchopt::spawn::admit(1u,
// CHECK: __lo_spawn_serial_produce(
// CHECK-NEXT: else
// CHECK-NEXT: __lo_launchedInOrder = true;
// CHECK: launchopt::spawn::admit(2u, __lo_sgrid2, __lo_sblock2, __lo_sthreads2,
// CHECK-NEXT: __lo_launchedInOrder, false, true);
// CHECK-NOT: __lo_launchedInOrder = true;
// CHECK: }

// REMARK: order-guard.cu:29:3: remark: spawn applied to launch of 'produce'
// REMARK: order-guard.cu:30:3: remark: spawn applied to launch of 'consume' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: 'mine' (written by the launch at line 29) and 'mine' (read by this one)

