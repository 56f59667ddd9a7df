// The listing names parent, child, configuration, context and child features.
// RUN: %launchopt --list-launches %s | %FileCheck %s
// RUN: %launchopt --list-launches --format=json %s | %FileCheck %s --check-prefix=JSON

__global__ void visit(const int *adj, int begin, int degree, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < degree)
    out[adj[begin + i]] = 1;
}

__global__ void expand(const int *row, const int *adj, int n, int *out) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u < n) {
    int degree = row[u + 1] - row[u];
    visit<<<(degree + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(adj, row[u], degree, out);
  }
}

void host(const int *row, const int *adj, int n, int *out) {
  expand<<<(n + 255) / 256, 256>>>(row, adj, n, out);
}

// CHECK: launch #1 at {{.*}}list-bfs.cu:15:5: device-side, 'expand' launches 'visit'
// CHECK-NEXT: grid: (degree + 127) / 128
// CHECK-NEXT: block: 128
// CHECK-NEXT: shared memory: 0
// CHECK-NEXT: stream: cudaStreamFireAndForget (fire-and-forget)
// CHECK-NEXT: child threads: x: degree
// CHECK-NEXT: context: not in loop, in branch
// CHECK-NEXT: child uses: index variables blockDim.x, blockIdx.x, threadIdx.x; barriers none; shared memory no; warp primitives none; launches none
// CHECK: launch #2 at {{.*}}list-bfs.cu:20:3: host-side, 'host' launches 'expand'
// CHECK: launches visit

// JSON: "child": "visit"
// JSON: "inBranch": true
// JSON: "side": "device"
// JSON: "streamKind": "fire-and-forget"
// JSON: "side": "host"
