// An output path that cannot be written: exit 1 with a message naming it.
// RUN: sh -c '%launchopt --threshold %s -o /nonexistent/dir/x.cu 2> %t.err; test $? -eq 1'
// RUN: %FileCheck %s < %t.err

__global__ void child(int *d) { d[threadIdx.x] = 0; }
__global__ void parent(int *d, int n) { child<<<(n + 31) / 32, 32>>>(d); }

// CHECK: launchopt: error: {{.*}}/nonexistent/dir/x.cu
