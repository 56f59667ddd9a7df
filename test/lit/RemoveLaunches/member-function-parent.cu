// A launch written in a member function of a struct: the child's namespace
// is the parent's, so the reasons are the real ones (a __device__ function
// parent), not a namespace. auto takes T4, which runs the child in the
// calling thread, and the output needs no -rdc.
// RUN: %launchopt --remove-launches=T1 %s -o %t1.cu 2> %t1.remarks
// RUN: %FileCheck %s --check-prefix=T1 < %t1.remarks
// RUN: %launchopt --remove-launches=auto %s -o %ta.cu 2> %ta.remarks
// RUN: %FileCheck %s --check-prefix=AUTO < %ta.remarks
// RUN: %nvcc-compile %ta.cu
#include <cuda_runtime.h>

namespace segments {

__global__ void fill(int *out, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = v;
}

struct Segments {
  int *data;
  const int *offsets;
  __device__ void fillSegment(int s) const {
    int begin = offsets[s], n = offsets[s + 1] - begin;
    if (n > 0)
      fill<<<(n + 127) / 128, 128>>>(data + begin, n, s);
  }
};

__global__ void fillAll(Segments segs, int count) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < count)
    segs.fillSegment(s);
}

} // namespace segments

// T1: member-function-parent.cu:26:7: remark: not removed: the parent is a __device__ function: only a kernel's grid can be made persistent
// AUTO: member-function-parent.cu:26:7: remark: remove-launches applied to launch of 'fill' (auto: T4 (CKi -> PTi)
// AUTO: remark: remove-launches: every device-side launch of this file is removed
