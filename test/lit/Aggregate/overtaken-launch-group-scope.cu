// A launch that aggregation leaves for the stream's order (here 'mid', which
// 'reader' would overtake) launches its child as a grid of its own: that
// child's launches may then not share a group scope (multi-block and grid
// granularity), so they are left too. The two rules are applied to a fixed
// point. (Found by the random programs on the H100: seeds 246, 346, 381 and
// 600 gave other checksums at A-multiblock, A-grid and A-threads.)
// RUN: %launchopt --aggregate=multiblock:8 %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %launchopt --aggregate=grid %s -o %t.g.cu 2> %t.g.remarks
// RUN: %FileCheck %s < %t.g.remarks
// RUN: %launchopt --aggregate=block %s -o %t.b.cu 2> %t.b.remarks
// RUN: %FileCheck %s --check-prefix=BLOCK < %t.b.remarks

__global__ void leaf(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] += 1;
}

__global__ void mid(int *a, int n) {
  int j = threadIdx.x;
  leaf<<<(n + 31) / 32, 32>>>(a + j * n, n);
}

__global__ void reader(const int *a, int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = a[i];
}

__global__ void top(int *a, int *b, int n) {
  mid<<<1, 32>>>(a, n);
  reader<<<(n + 31) / 32, 32>>>(a, b, n);
}

// CHECK: overtaken-launch-group-scope.cu:22:3: remark: not aggregated: the parent is also launched from device code at line 32, a launch that is not aggregated
// CHECK: overtaken-launch-group-scope.cu:32:3: remark: not aggregated: the launch of 'reader' at line 33, which may follow this one into the same stream, is not aggregated
// CHECK: overtaken-launch-group-scope.cu:33:3: remark: not aggregated: the parent thread launches other children into the same stream{{.*}}; not kept in order: only warp and block granularity keep the order

// Block granularity has no group scope across grids: 'mid' keeps its own,
// and the block's ordered scopes keep 'mid' before 'reader'.
// BLOCK: overtaken-launch-group-scope.cu:22:3: remark: aggregate applied to launch of 'leaf'
// BLOCK: overtaken-launch-group-scope.cu:32:3: remark: aggregate applied to launch of 'mid' ({{.*}}order: kept with the launches at line 33
// BLOCK: overtaken-launch-group-scope.cu:33:3: remark: aggregate applied to launch of 'reader' ({{.*}}order: kept with the launches at line 32
