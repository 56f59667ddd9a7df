// A launch guarded by an index compared with a value the whole block shares
// (`threadIdx.x == Threads - 1`, an early return of every thread but
// `blockDim.x - 1`) is made by one thread of each block, as under
// `threadIdx.x == 0`: --auto's model counts one launch per parent block.
// A value read from memory pins nothing. Promotion, whose block leader is
// thread zero, refuses a chain launched by another thread with that reason.
// RUN: %launchopt --auto %s -o %t.cu --report %t.txt 2> /dev/null
// RUN: %FileCheck %s < %t.txt
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --promote=P %s -o %t.p.cu 2> %t.p.remarks
// RUN: %FileCheck %s --check-prefix=PROMOTE < %t.p.remarks
__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1.0f;
}

template <int Threads> __global__ void lastThread(float *d, const int *len) {
  if (threadIdx.x == Threads - 1)
    child<<<(len[blockIdx.x] + 127) / 128, 128>>>(d + blockIdx.x * 4096, len[blockIdx.x]);
}

__global__ void lastOfBlock(float *d, const int *len) {
  if (threadIdx.x != blockDim.x - 1)
    return;
  child<<<(len[blockIdx.x] + 127) / 128, 128>>>(d + blockIdx.x * 4096, len[blockIdx.x]);
}

__global__ void readFromMemory(float *d, const int *len) {
  if (threadIdx.x == len[0])
    child<<<1, 128>>>(d, 4);
}

__global__ void chain(float *d, int n) {
  d[n] += 1.0f;
  if (threadIdx.x == blockDim.x - 1 && n > 0)
    chain<<<1, 64>>>(d, n - 1);
}

void host(float *d, const int *len) {
  lastThread<64><<<8, 64>>>(d, len);
  lastOfBlock<<<8, 64>>>(d, len);
  readFromMemory<<<8, 64>>>(d, len);
  chain<<<1, 64>>>(d, 10);
}

// CHECK: ('lastThread' -> 'child'): auto:
// CHECK: launches: one per parent block
// CHECK: ('lastOfBlock' -> 'child'): auto:
// CHECK: launches: one per parent block
// CHECK: ('readFromMemory' -> 'child'): auto:
// CHECK: launches: at most one per parent thread
// PROMOTE: guards-last-thread.cu:37:5: remark: not promoted: the launch is made by one thread of a block, but not thread zero, which the promoted code makes the block's leader
