// dim3 configurations, shared-memory and stream operands as written, and the
// thread count recovered per dimension.
// RUN: %launchopt --list-launches %s | %FileCheck %s

__global__ void child(float *d, int w, int h) {
  extern __shared__ float tile[];
  tile[threadIdx.y * blockDim.x + threadIdx.x] = d[blockIdx.y * w + blockIdx.x];
}

__global__ void parent(float *d, const int *ws, int h, cudaStream_t s) {
  int w = ws[threadIdx.x];
  dim3 grid((w + 15) / 16, (h + 15) / 16);
  child<<<grid, dim3(16, 16), 256 * sizeof(float), s>>>(d, w, h);
}

// CHECK: launch #1 at {{.*}}list-dim3-shared-stream.cu:13:3: device-side, 'parent' launches 'child'
// CHECK-NEXT: grid: grid
// CHECK-NEXT: block: dim3(16, 16)
// CHECK-NEXT: shared memory: 256 * sizeof(float)
// CHECK-NEXT: stream: s (named)
// CHECK-NEXT: child threads: x: w ((N + c)/b, via variables); y: h ((N + c)/b, via variables)
// CHECK-NEXT: context: not in loop, not in branch
// CHECK-NEXT: child uses: index variables blockDim.x, blockIdx.xy, threadIdx.xy; barriers none; shared memory yes; warp primitives none; launches none
