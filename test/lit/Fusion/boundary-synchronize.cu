// A synchronisation between two launches is a constraint: the kernels on
// either side never fuse, and the report names it. The same launches
// without it fuse (the control), so the check can fail.
// RUN: %launchopt fuse %s --function=together --search=exact --quiet --report=- -o %t.cu 2>/dev/null | %FileCheck %s --check-prefix=TOGETHER
// RUN: %launchopt fuse %s --function=device_sync --search=exact --quiet --report=- -o %t.cu 2>/dev/null | %FileCheck %s --check-prefix=DEVICE
// RUN: %launchopt fuse %s --function=stream_sync --search=exact --quiet --report=- -o %t.cu 2>/dev/null | %FileCheck %s --check-prefix=STREAM
// RUN: %launchopt fuse %s --function=stream_sync --search=exact --quiet -o - 2>/dev/null | %FileCheck %s --check-prefix=CODE

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

void device_sync(float *in, float *p, float *q, int n) {
  twice<<<n / 256, 256>>>(in, p);
  cudaDeviceSynchronize();
  plus<<<n / 256, 256>>>(in, q);
}

void stream_sync(float *in, float *p, float *q, int n) {
  twice<<<n / 256, 256>>>(in, p);
  int status = 0;
  if (cudaStreamSynchronize(0) != cudaSuccess)
    status = 1;
  plus<<<n / 256, 256>>>(in, q);
}

// TOGETHER: fusion plan: 2 of 2 kernels fused into 1 new kernels

// DEVICE: fusion plan: 0 of 2 kernels fused into 0 new kernels
// DEVICE: segment 1 from 'plus': synchronisation 'cudaDeviceSynchronize' at line 25 between the launches; no kernel fuses across it

// The synchronisation is named over the plain statement before it.
// STREAM: fusion plan: 0 of 2 kernels fused into 0 new kernels
// STREAM: segment 1 from 'plus': synchronisation 'cudaStreamSynchronize' at line 32 between the launches; no kernel fuses across it

// CODE-LABEL: void stream_sync(
// CODE-NEXT: twice<<<n / 256, 256>>>(in, p);
// CODE-NEXT: int status = 0;
// CODE-NEXT: if (cudaStreamSynchronize(0) != cudaSuccess)
// CODE-NEXT: status = 1;
// CODE-NEXT: plus<<<n / 256, 256>>>(in, q);
