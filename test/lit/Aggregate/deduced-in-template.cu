// A launch inside a template parent that leaves the child's template
// arguments to deduction: the aggregation records name them in the parent's
// own terms, read from the arguments' types (`V *` passed to `const T *`
// gives T = V; by value, an argument's const is dropped), with a default
// that no parameter can override; pointer arithmetic on a template operand
// shows the pointer's type. Where no argument shows a parameter (a call of
// a template function on template operands), aggregation refuses and
// thresholding, whose copies are called like the child, still deduces it.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --threshold %s -o %t.t.cu 2> %t.t.remarks
// RUN: %FileCheck %s --check-prefix=THRESHOLD < %t.t.remarks
// RUN: %nvcc-compile %t.t.cu

template <typename T, typename U, int Width = 4>
__global__ void scaled(const T *in, U *out, int n, T factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = U(in[i] * factor) + U(Width);
}

template <typename T> __global__ void shifted(T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] += T(1);
}

template <typename V, typename W>
__global__ void parent(const V *in, W *out, const int *len, int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments)
    return;
  const V factor = V(2);
  scaled<<<(len[s] + 63) / 64, 64>>>(in + s * 256, out, len[s], factor);
}

template <typename P> __device__ P pick(P p) { return p; }

template <typename W> __global__ void shiftAll(W *out, const int *len) {
  shifted<<<(len[threadIdx.x] + 63) / 64, 64>>>(out + threadIdx.x * 256, len[threadIdx.x]);
}

template <typename W> __global__ void shiftPicked(W *out, const int *len) {
  shifted<<<(len[threadIdx.x] + 63) / 64, 64>>>(pick(out) + 8192, len[threadIdx.x]);
}

void host(const float *in, double *out, const int *len) {
  parent<<<4, 64>>>(in, out, len, 256);
  shiftAll<<<1, 32>>>(out, len);
  shiftPicked<<<1, 32>>>(out, len);
}

// REMARKS: deduced-in-template.cu:36:3: remark: aggregate applied to launch of 'scaled'
// REMARKS: deduced-in-template.cu:42:3: remark: aggregate applied to launch of 'shifted'
// REMARKS: deduced-in-template.cu:46:3: remark: not aggregated: the launch leaves the child's template arguments to deduction from arguments whose types are not known before the parent is instantiated: write the template arguments out
// THRESHOLD: deduced-in-template.cu:36:3: remark: threshold applied to launch of 'scaled'
// THRESHOLD: deduced-in-template.cu:42:3: remark: threshold applied to launch of 'shifted'
// THRESHOLD: deduced-in-template.cu:46:3: remark: threshold applied to launch of 'shifted'

// CHECK: sizeof(__lo_args_scaled<V, W, (int)4>)
// CHECK: ::new (__lo_record{{[0-9]+}}) __lo_args_scaled<V, W, (int)4>(
