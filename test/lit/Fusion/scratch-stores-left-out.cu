// A scratch array -- one the host function allocates, frees and passes to
// the sequence's launches, and nothing else -- that a new kernel produces
// and reads on chip only is not stored: nothing could load it. f is read at
// (x - 1), so the producer is recomputed there; a read beyond the grid's x
// edge falls back to GMEM, so the sites at the grid's x edges keep their
// stores. g is read at the thread's own site only: no store at all.
// RUN: %launchopt fuse %s --use-plan=%S/Inputs/produce-consume.json -o %t.cu --report=%t.report 2> /dev/null
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc-compile %t.cu
// Through a host wrapper the arrays are still scratch; there the block is
// the wrapper's parameter, so f and g stay in GMEM, stores and all.
// RUN: %launchopt fuse %s --function=main --use-plan=%S/Inputs/produce-consume.json -o /dev/null --write-problem=%t.problem.json --report=%t.wrapped -- -DWRAPPED 2> /dev/null
// RUN: %FileCheck %s --check-prefix=PROBLEM < %t.problem.json
// RUN: %FileCheck %s --check-prefix=KEPT < %t.wrapped
// What keeps the stores: the host copying f back keeps f's (g's go);
// another name for f; a producer that returns early at some threads.
// RUN: %launchopt fuse %s --use-plan=%S/Inputs/produce-consume.json -o /dev/null --report=%t.copied -- -DCOPY_BACK 2> /dev/null
// RUN: %FileCheck %s --check-prefix=COPIED < %t.copied
// RUN: %launchopt fuse %s --use-plan=%S/Inputs/produce-consume.json -o /dev/null --report=%t.alias -- -DALIAS 2> /dev/null
// RUN: %FileCheck %s --check-prefix=COPIED < %t.alias
// RUN: %launchopt fuse %s --use-plan=%S/Inputs/produce-consume.json -o /dev/null --report=%t.guarded -- -DGUARDED 2> /dev/null
// RUN: %FileCheck %s --check-prefix=KEPT < %t.guarded

__global__ void produce(const float *u, float *f, float *g, int nx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
#ifdef GUARDED
  if (i >= nx)
    return;
#endif
  int c = j * nx + i;
  f[c] = 2.0f * u[c];
  g[c] = u[c] + 1.0f;
}

__global__ void consume(const float *f, const float *g, float *d, int nx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int c = j * nx + i;
  d[c] = g[c] * (f[c] + (i > 0 ? f[c - 1] : 0.0f));
}

#ifdef WRAPPED
void consume_step(dim3 grid, dim3 block, const float *f, const float *g, float *d, int nx) {
  consume<<<grid, block>>>(f, g, d, nx);
}
#endif

int main() {
  const int nx = 1024;
  size_t bytes = size_t(nx) * nx * sizeof(float);
  float *u, *f = nullptr, *g, *d;
  cudaMalloc(&u, bytes);
  cudaMalloc(&f, bytes);
  cudaMalloc(&g, bytes);
  cudaMalloc(&d, bytes);
#ifdef ALIAS
  float *same = f;
  cudaMemset(same, 0, bytes);
#endif
  dim3 block(32, 8), grid(nx / 32, nx / 8);
  for (int step = 0; step < 10; ++step) {
    produce<<<grid, block>>>(u, f, g, nx);
#ifdef WRAPPED
    consume_step(grid, block, f, g, d, nx);
#else
    consume<<<grid, block>>>(f, g, d, nx);
#endif
  }
  float out = 0;
  cudaMemcpy(&out, d, sizeof(float), cudaMemcpyDeviceToHost);
#ifdef COPY_BACK
  cudaMemcpy(&out, f, sizeof(float), cudaMemcpyDeviceToHost);
#endif
  cudaFree(u);
  cudaFree(f);
  cudaFree(g);
  cudaFree(d);
  return out > 0;
}

// CHECK-LABEL: void __lo_body_produce_in_fused_0(
// CHECK: __lo_val_f = 2.0f * u[c], __lo_valset_f = true, __lo_own && ((blockIdx.x * blockDim.x + threadIdx.x) < 1u || (blockIdx.x * blockDim.x + threadIdx.x) + 1u >= gridDim.x * blockDim.x) ? (void)(f[c] = __lo_val_f) : (void)0;
// CHECK-NEXT: __lo_val_g = u[c] + 1.0f, __lo_valset_g = true;
// CHECK: // On chip: recomputed at neighbours: f (halo 1) g (halo 1); stores left out: f (but at the grid's x edges) g.

// REPORT: complex fusion of produce(halo 1) consume
// REPORT: stores left out (scratch arrays read on chip only): f g

// COPIED: complex fusion of produce(halo 1) consume
// COPIED: stores left out (scratch arrays read on chip only): g{{$}}

// PROBLEM: "name": "f",
// PROBLEM-NEXT: "scratch": true
// PROBLEM: "name": "g",
// PROBLEM-NEXT: "scratch": true
// PROBLEM: "constant_block": false

// KEPT: complex fusion of produce(halo 1) consume
// KEPT-NOT: stores left out
