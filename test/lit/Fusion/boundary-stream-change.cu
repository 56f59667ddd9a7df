// A launch into another stream is a constraint: the kernels of the two
// streams never fuse, and the report names the stream change. The same
// launches in one stream fuse (the control), so the check can fail.
// RUN: %launchopt fuse %s --function=together --search=exact --quiet --report=- -o %t.cu 2>/dev/null | %FileCheck %s --check-prefix=TOGETHER
// RUN: %launchopt fuse %s --function=streams --search=exact --quiet --report=- -o %t.cu 2>/dev/null | %FileCheck %s

__global__ void twice(const float *in, float *p) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  p[c] = 2.0f * in[c];
}
__global__ void plus(const float *in, float *q) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  q[c] = in[c] + 1.0f;
}

void together(float *in, float *p, float *q, int n) {
  twice<<<n / 256, 256>>>(in, p);
  plus<<<n / 256, 256>>>(in, q);
}

void streams(float *in, float *p, float *q, int n, cudaStream_t side) {
  twice<<<n / 256, 256>>>(in, p);
  plus<<<n / 256, 256, 0, side>>>(in, q);
  twice<<<n / 256, 256>>>(in, p);
}

// TOGETHER: fusion plan: 2 of 2 kernels fused into 1 new kernels

// CHECK: fusion plan: 0 of 3 kernels fused into 0 new kernels; 3 launches instead of 3
// CHECK: segment 1 from 'plus': launch into stream 'side' after one into the default stream; no kernel fuses across it
// CHECK: segment 2 from 'twice#2': launch into the default stream after one into stream 'side'; no kernel fuses across it
