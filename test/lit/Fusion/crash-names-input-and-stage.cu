// A crash anywhere in launchopt names the input and the stage instead of a
// bare abort: an uncaught exception exits 70 with one line, a fatal signal
// prints the stage in the stack dump. (--testing-only-crash is a hidden
// option that exists for this test only.)
// RUN: %not %launchopt fuse %s --testing-only-crash=exception -o %t.cu 2> %t.exception
// RUN: %FileCheck %s --check-prefix=EXCEPTION < %t.exception
// RUN: %not --crash %launchopt fuse %s --testing-only-crash=signal -o %t.cu 2> %t.signal
// RUN: %FileCheck %s --check-prefix=SIGNAL < %t.signal

// EXCEPTION: launchopt: internal error while searching and generating the fusion plan of '{{.*}}crash-names-input-and-stage.cu': std::bad_alloc
// SIGNAL: launchopt crashed: please report it
// SIGNAL: launchopt: internal error while searching and generating the fusion plan of '{{.*}}crash-names-input-and-stage.cu'

__global__ void scale(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

void run(const float *in, float *out, int n) { scale<<<(n + 255) / 256, 256>>>(in, out, n); }
