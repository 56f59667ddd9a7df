template <typename T, int Block>
__global__ void carry(const T *in, T *out, int n, int step, T offset) {
  int i = step * Block + threadIdx.x;
  if (i < n)
    out[i] = offset + in[i];
  if (threadIdx.x == 0 && (step + 1) * Block < n)
    carry<T, Block><<<1, Block>>>(in, out, n, step + 1, offset + 1);
}

template <>
__global__ void carry<float, 64>(const float *in, float *out, int n, int step, float offset) {
  int i = step * 64 + threadIdx.x;
  if (i < n)
    out[i] = offset * in[i];
  if (threadIdx.x == 0 && (step + 1) * 64 < n)
    carry<float, 64><<<1, 64>>>(in, out, n, step + 1, offset + 1);
}

__global__ void relay(int *data, int step) {
  data[step * 32 + threadIdx.x] += step;
  if (threadIdx.x == 0 && step < 8)
    relay<<<1, 32>>>(data, step + 1);
}

__global__ void relay(float *data, int step) {
  data[step * 32 + threadIdx.x] *= 2.0f;
  if (threadIdx.x == 0 && step < 8)
    relay<<<1, 32>>>(data, step + 1);
}

void run(const int *in, int *out, const float *fi, float *fo, int n) {
  carry<int, 32><<<1, 32>>>(in, out, n, 0, 0);
  carry<float, 64><<<1, 64>>>(fi, fo, n, 0, 0.f);
  relay<<<1, 32>>>(out, 0);
  relay<<<1, 32>>>(fo, 0);
}

// A kernel promoted at the very start of the file gets the runtime before
// its generated code (the RUN lines are at the end so that it starts the
// file); an explicit specialization keeps its launch, and so does the second
// of two overloads (the generated names are the kernel's).
// RUN: %launchopt --promote %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// CHECK:      #define LAUNCHOPT_PROMOTE_POOL 1u
// CHECK:      ---- end of launchopt/promotion.cuh ----
// CHECK:      template <typename T, int Block>
// CHECK-NEXT: struct __lo_promote_args_carry {
// REMARK: file-start-and-specializations.cu:7:5: remark: promote applied to launch of 'carry'
// REMARK: file-start-and-specializations.cu:16:5: remark: not promoted: the kernel is an explicit specialization of a template
// REMARK: file-start-and-specializations.cu:22:5: remark: promote applied to launch of 'relay'
// REMARK: file-start-and-specializations.cu:28:5: remark: not promoted: another kernel named 'relay' is promoted in this file (an overload): the generated names would clash
