// The footprint of a kernel in a cycle of launches (ping launches pong,
// pong launches ping) is not kept while it rests on the claim for a kernel
// still being checked: pong, which writes `p` only through ping, must not
// pass as a reader because ping was checked first.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void pong(int *p, int n, int depth);

__global__ void ping(int *p, int n, int depth) {
  for (int i = 0; i < n; ++i)
    p[i] = i;
  if (depth > 0)
    pong<<<1, 1>>>(p, n, depth - 1);
}

__global__ void pong(int *p, int n, int depth) {
  if (depth > 0)
    ping<<<1, 1>>>(p, n, depth - 1);
}

__global__ void readAll(const int *p, int n, int *out) {
  for (int i = 0; i < n; ++i)
    out[i] = p[i];
}

__global__ void parent(int *__restrict__ p, int *__restrict__ q, int n, int *__restrict__ out) {
  ping<<<1, 1>>>(q, n, 4);
  readAll<<<1, 1>>>(p, n, out);
  pong<<<1, 1>>>(p, n, 4);
}

// CHECK: independent-children-mutual-recursion.cu:31:3: remark: threshold applied to launch of '{{[a-zA-Z]+}}' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: 'p' (read by the launch at line 30) and 'p' (written by this one) may overlap
