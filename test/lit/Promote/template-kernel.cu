// A template kernel's chain is promoted: the argument struct, the body, the
// pack function and the pool kernel are templates with the kernel's
// parameters (defaults dropped), and every use names their arguments; a
// template parameter is a constant block size; a parameter of dependent type
// is stored when every instantiation's is trivially copyable. A parameter
// pack is refused (the struct could not hold it).
// RUN: %launchopt --promote %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --promote=PAO:32 %s -o %t.pao.cu 2> %t.pao.remarks
// RUN: %FileCheck %s --check-prefix=PAO < %t.pao.cu
// RUN: %FileCheck %s --check-prefix=PAO-REMARK < %t.pao.remarks
// RUN: %nvcc-compile %t.pao.cu

template <typename T, int Block = 64>
__global__ void carry(const T *in, T *out, int n, int step, T offset) {
  __shared__ T sum;
  if (threadIdx.x == 0)
    sum = 0;
  __syncthreads();
  int i = step * Block + threadIdx.x;
  if (i < n)
    atomicAdd(&sum, in[i]);
  __syncthreads();
  if (i < n)
    out[i] = offset + in[i];
  if (threadIdx.x == 0 && (step + 1) * Block < n)
    carry<T, Block><<<1, Block>>>(in, out, n, step + 1, offset + sum);
}

template <typename... Ts>
__global__ void packed(int step, Ts... values) {
  if (threadIdx.x == 0 && step < 4)
    packed<<<1, 32>>>(step + 1, values...);
}

void run(const int *in, int *out, const float *fin, float *fout, int n) {
  carry<int, 32><<<1, 32>>>(in, out, n, 0, 0);
  carry<float><<<1, 64>>>(fin, fout, n, 0, 0.0f);
  packed<<<1, 32>>>(0, 1, 2.0f);
}

// REMARK: template-kernel.cu:29:5: remark: promote applied to launch of 'carry' (mode: P, pool: 1)
// REMARK: template-kernel.cu:35:5: remark: not promoted: the kernel's template has a parameter pack ('Ts'): the postponed arguments' struct could not hold a pack

// CHECK:      template <typename T, int Block>
// CHECK-NEXT: struct __lo_promote_args_carry {
// CHECK-NEXT:   const T *in;
// CHECK:      template <typename T, int Block>
// CHECK-NEXT: __global__ void carry(const T *in, T *out, int n, int step, T offset);
// CHECK-NEXT: template <typename T, int Block>
// CHECK-NEXT: __global__ void __lo_promote_pool_carry(launchopt::promotion::Pool<__lo_promote_args_carry<T, Block>> *__lo_pool);
// CHECK-NEXT: template <typename T, int Block>
// CHECK-NEXT: __device__ inline __lo_promote_args_carry<T, Block> __lo_promote_pack_carry(const T *in, T *out, int n, int step, T offset) {
// CHECK-NEXT:   return __lo_promote_args_carry<T, Block>{in, out, n, step, offset};
// CHECK:      template <typename T, int Block>
// CHECK-NEXT: __device__ void __lo_promote_body_carry(
// CHECK:      __lo_promote_pool_carry<T, Block><<<__lo_next->size, Block, 0, cudaStreamFireAndForget>>>(__lo_next);
// CHECK:      launchopt::promotion::store(__lo_site, __lo_promote_pack_carry<T, Block>(in, out, n, step + 1, offset + sum)); else carry<T, Block><<<1, Block>>>(in, out, n, step + 1, offset + sum); }
// The kernel keeps its own header with the default.
// CHECK:      template <typename T, int Block = 64>
// CHECK-NEXT: __global__ void carry(const T *in, T *out, int n, int step, T offset) {
// CHECK:        __lo_promote_body_carry<T, Block>(in, out, n, step, offset, __lo_site, blockIdx, gridDim);
// CHECK:      template <typename T, int Block>
// CHECK-NEXT: __global__ void __lo_promote_pool_carry(

// PAO: launchopt::promotion::makePool<__lo_promote_args_carry<T, Block>>(LAUNCHOPT_PROMOTE_POOL);
// PAO: __lo_promote_args_carry<T, Block> &__lo_succ = launchopt::promotion::successorArgs(__lo_site);
// PAO: const __lo_promote_args_carry<T, Block> &__lo_own = launchopt::promotion::arguments(__lo_site);
// PAO-REMARK: template-kernel.cu:29:5: remark: promote applied to launch of 'carry' (early-condition: ((step + 1) * Block < n), mode: PAO
// PAO-REMARK-SAME: line 23 calls 'atomicAdd' with arguments whose types depend on the template's parameters
