// The JSON report has one entry per launch site with what was applied, its
// parameters, or why not.
// RUN: %launchopt --threshold %s -o %t.cu --report=- --format=json 2> /dev/null | %FileCheck %s

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = 0;
}
__global__ void barrier(int *d) { __syncthreads(); }

__global__ void parent(int *d, int n) {
  child<<<(n + 31) / 32, 32>>>(d, n);
  barrier<<<1, 32, 0, cudaStreamFireAndForget>>>(d);
}

// CHECK: "sites": [
// CHECK: "applied": true,
// CHECK: "child": "child",
// CHECK: "launch": 1,
// CHECK: "line": 13,
// CHECK: "parameters": {
// CHECK-NEXT: "serial-function": "__lo_serial_child",
// CHECK-NEXT: "threads": "x: n ((N + c)/b)"
// CHECK: "pass": "threshold",
// CHECK: "reason": "",
// CHECK: "applied": false,
// CHECK: "child": "barrier",
// CHECK: "launch": 2,
// CHECK: "reason": "child uses __syncthreads",
