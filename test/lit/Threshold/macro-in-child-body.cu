// A child body that reads the built-ins through a macro: the macro is copied
// as written and works in the serial copy because the built-ins are shadowed.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

#define TID (blockIdx.x * blockDim.x + threadIdx.x)

__global__ void child(int *d, int n) {
  if (TID < n)
    d[TID] = TID;
}

__global__ void parent(int *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK-LABEL: static __device__ void __lo_thread_child(
// CHECK: const uint3 blockIdx = __lo_blockIdx;
// CHECK-NEXT: const uint3 threadIdx = __lo_threadIdx;
// CHECK-NEXT: const dim3 blockDim = __lo_blockDim;
// CHECK: if (TID < n)
// CHECK-NEXT: d[TID] = TID;

// REMARK: macro-in-child-body.cu:17:3: remark: threshold applied to launch of 'child'
