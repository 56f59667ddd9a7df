// A kernel a class befriends reads that class's private members: the copies
// every pass writes of it would not be friends, so each pass leaves its
// launch with the reason (the output compiled as before), and --auto keeps
// it as written.
// RUN: %launchopt --threshold %s -o %t.t.cu --report %t.t.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=THRESHOLD < %t.t.txt
// RUN: %launchopt --aggregate=block %s -o %t.a.cu --report %t.a.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=AGGREGATE < %t.a.txt
// RUN: %launchopt --remove-launches=T1 %s -o %t.r.cu --report %t.r.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=REMOVE < %t.r.txt
// RUN: %launchopt --auto %s -o %t.auto.cu --report %t.auto.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=AUTO < %t.auto.txt
// RUN: %nvcc-compile %t.auto.cu
#include <cuda_runtime.h>

class Span {
  float *p_;
  int n_;

public:
  __host__ __device__ Span(float *p, int n) : p_(p), n_(n) {}
  friend __global__ void scaleSpan(Span s, float f);
};

__global__ void scaleSpan(Span s, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n_)
    s.p_[i] *= f;
}

__global__ void parent(float *data, int chunk, int chunks) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < chunks)
    scaleSpan<<<(chunk + 127) / 128, 128>>>(Span(data + c * chunk, chunk), 2.f);
}

void run(float *data) { parent<<<1, 32>>>(data, 1000, 32); }

// THRESHOLD: ('parent' -> 'scaleSpan'): threshold: not applied: the kernel 'scaleSpan' is a friend of 'Span': the copies launchopt writes would not be, and could not read what it reads of that class
// AGGREGATE: ('parent' -> 'scaleSpan'): aggregate: not applied: the kernel 'scaleSpan' is a friend of 'Span'
// REMOVE: ('parent' -> 'scaleSpan'): remove-launches: not applied: the kernel 'scaleSpan' is a friend of 'Span'
// AUTO: ('parent' -> 'scaleSpan'): auto: not applied: kept as written: no pass takes it: {{.*}}the kernel 'scaleSpan' is a friend of 'Span'
// AUTO: choice: as written
