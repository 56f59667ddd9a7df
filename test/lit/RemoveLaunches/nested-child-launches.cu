// Nested children: the removed child 'middle' itself launches 'leaf', whose
// threads synchronize, so T4 cannot remove that launch: it stays a device
// launch in middle's copy, the report says so, and the output still needs
// -rdc. A nested launch T4 can take is removed in the copy too.
// RUN: %launchopt --remove-launches=T4 %s --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s < %t.report
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s --check-prefix=COPY
// RUN: %nvcc-compile %t.cu
#include <cuda_runtime.h>

__global__ void leaf(int *out) {
  __shared__ int s[32];
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[31 - threadIdx.x];
}

__global__ void plain_leaf(int *out) { out[threadIdx.x] += 1; }

__global__ void middle(int *out) {
  leaf<<<1, 32>>>(out);
  plain_leaf<<<1, 32>>>(out + 32);
}

__global__ void top(int **outs) { middle<<<1, 1>>>(outs[threadIdx.x]); }

// CHECK: ('middle' -> 'leaf'): remove-launches: not applied: T4 runs the child's threads one after another in the parent thread: child uses __syncthreads
// CHECK: ('middle' -> 'plain_leaf'): remove-launches: not applied: the parent thread launches other children into the same stream before this one, and not all of them are removed the same way
// CHECK: ('top' -> 'middle'): remove-launches: applied
// CHECK-NEXT: function: __lo_inline_middle
// CHECK-NEXT: nested-launches: stay device launches in the copy of the child: 'leaf' at line 21 (T4 runs the child's threads one after another in the parent thread: child uses __syncthreads); 'plain_leaf' at line 22
// CHECK-NOT: every device-side launch

// COPY-LABEL: static __device__ void __lo_ithread_middle(
// COPY: leaf<<<1, 32>>>(out);
// COPY-NEXT: plain_leaf<<<1, 32>>>(out + 32);
