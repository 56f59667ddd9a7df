// A child that tail-launches kernels is left by every pass that would run
// it in other threads: serialized in the parent thread (threshold, T4,
// spawn's serial copy), run by the parent block (T3) or many of its grids in
// one aggregated grid, its tail launches would come from many threads of one
// grid beside that grid's other launches, which CUDA 13.0 can leave
// unfinished (test/random/results/tail-launch-hang). Spawn cannot defer it
// either: the file's own tail launches could run before the deferred child.
// RUN: %launchopt --threshold %s -o %t.t.cu 2>&1 | %FileCheck %s --check-prefix=T
// RUN: %launchopt --aggregate=block %s -o %t.a.cu 2>&1 | %FileCheck %s --check-prefix=A
// RUN: %launchopt --remove-launches=T4 %s -o %t.r4.cu 2>&1 | %FileCheck %s --check-prefix=R4
// RUN: %launchopt --remove-launches=T3 %s -o %t.r3.cu 2>&1 | %FileCheck %s --check-prefix=R3
// RUN: %launchopt --spawn %s -o %t.s.cu 2>&1 | %FileCheck %s --check-prefix=S

__global__ void finish(int *out) { atomicAdd(out, 1); }

__global__ void step(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&out[i], 1);
  if (i == 0)
    finish<<<1, 1, 0, cudaStreamTailLaunch>>>(out);
}

__global__ void steps(int *out, const int *sizes, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    step<<<(sizes[i] + 31) / 32, 32>>>(out, sizes[i]);
}

// T: child-tail-launches.cu:27:5: remark: not thresholded: child tail-launches kernels: run in parent threads, its tail launches would come from many threads of the parent grid, which CUDA 13.0 can leave unfinished
// A: child-tail-launches.cu:27:5: remark: not aggregated: the child tail-launches kernels: in an aggregated grid its tail launches would come from many threads of one grid, which CUDA 13.0 can leave unfinished
// R4: child-tail-launches.cu:27:5: remark: not removed: T4 runs the child's threads one after another in the parent thread: child tail-launches kernels
// R3: child-tail-launches.cu:27:5: remark: not removed: child tail-launches kernels: run by the parent block
// S: child-tail-launches.cu:27:5: remark: not spawn-controlled: child tail-launches kernels: {{.*}}; not deferred either: device code of this file tail-launches kernels
