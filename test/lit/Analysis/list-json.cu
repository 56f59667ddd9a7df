// The JSON listing carries the same facts with stable keys.
// RUN: %launchopt --list-launches --format=json %s | %FileCheck %s

__global__ void child(int *d, int n) {
  __syncthreads();
  d[blockIdx.y] = n;
}

__global__ void parent(int *d, const int *sizes) {
  for (int j = 0; j < 4; ++j)
    child<<<dim3(1, (sizes[j] + 7) / 8), 8, 0, cudaStreamTailLaunch>>>(d, j);
}

// CHECK: "launches": [
// CHECK: "block": "8",
// CHECK: "child": "child",
// CHECK: "childThreads": "y: sizes[j] ((N + c)/b)",
// CHECK: "childUses": {
// CHECK: "barriers": [
// CHECK-NEXT: "__syncthreads"
// CHECK: "builtins": {
// CHECK-NEXT: "blockIdx": "y"
// CHECK: "sharedMemory": false,
// CHECK: "column": 5,
// CHECK: "grid": "dim3(1, (sizes[j] + 7) / 8)",
// CHECK: "id": 1,
// CHECK: "inBranch": false,
// CHECK: "inLoop": true,
// CHECK: "line": 11,
// CHECK: "parent": "parent",
// CHECK: "recursive": false,
// CHECK: "sharedMemory": "0",
// CHECK: "side": "device",
// CHECK: "stream": "cudaStreamTailLaunch",
// CHECK: "streamKind": "tail-launch"
