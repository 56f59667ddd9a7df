// A free in a __host__ __device__ function cannot become groupFree (it runs
// on the host too), so no device allocation of the file is rewritten: the
// pieces of an aggregated one could reach the plain free. The launch is still
// aggregated.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(float *d) { d[threadIdx.x] = 2.0f; }

__host__ __device__ void release(void *p) { free(p); }

__global__ void parent(float **buffers) {
  float *d = (float *)malloc(32 * sizeof(float));
  buffers[threadIdx.x] = d;
  child<<<1, 32>>>(d);
}

// CHECK-NOT: launchopt/allocation.cuh
// CHECK: __host__ __device__ void release(void *p) { free(p); }
// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: float *d = (float *)malloc(32 * sizeof(float));
// CHECK-NOT: launchopt::{{[a-zA-Z]*}}Malloc
// CHECK-NOT: groupFree

// REMARK-DAG: malloc-refused.cu:12:45: remark: not aggregated: device-side allocations and frees left as written: 'free' is called in 'release', a __host__ __device__ function; pieces of aggregated allocations could not be freed then
// REMARK-DAG: malloc-refused.cu:17:3: remark: aggregate applied to launch of 'child'
