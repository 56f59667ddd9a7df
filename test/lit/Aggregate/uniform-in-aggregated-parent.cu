// An argument is passed once per scope only when every parent thread of the
// scope computes it alike. At multi-block and grid granularity a parent whose
// own launches are aggregated runs several of them in one grid: its
// parameter n differs between them (each middle grid got its own size), so
// leaf's n is recorded per launch; out is passed alike by every site of
// middle, so it stays uniform in leaf's scope too. At block granularity a
// block of the aggregated grid is one launch's block: n is uniform there.
// RUN: %launchopt --aggregate=grid %s -o %t.grid.cu 2>&1 | %FileCheck %s --check-prefix=GRID
// RUN: %nvcc-compile %t.grid.cu
// RUN: %launchopt --aggregate=multiblock:2 %s -o %t.mb.cu 2>&1 | %FileCheck %s --check-prefix=GRID
// RUN: %launchopt --aggregate=block %s -o %t.block.cu 2>&1 | %FileCheck %s --check-prefix=BLOCK

__global__ void leaf(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&out[i], 1);
}

__global__ void middle(int *out, int n) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    leaf<<<(n + 31) / 32, 32>>>(out, n);
}

__global__ void top(int *out, const int *sizes, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    middle<<<1, 32>>>(out, sizes[i]);
}

// GRID: uniform-in-aggregated-parent.cu:21:5: remark: aggregate applied to launch of 'leaf' ({{.*}}uniform-arguments: out)
// GRID: uniform-in-aggregated-parent.cu:27:5: remark: aggregate applied to launch of 'middle' ({{.*}}uniform-arguments: out)
// BLOCK: uniform-in-aggregated-parent.cu:21:5: remark: aggregate applied to launch of 'leaf' ({{.*}}uniform-arguments: out, n)
