// --coarsen-factor sets the default of LAUNCHOPT_CFACTOR; -D overrides it.
// RUN: %launchopt --coarsen --coarsen-factor=8 %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %nvcc-compile -DLAUNCHOPT_CFACTOR=2 %t.cu

// CHECK: #ifndef LAUNCHOPT_CFACTOR
// CHECK-NEXT: #define LAUNCHOPT_CFACTOR 8
// CHECK-NEXT: #endif

__global__ void child(float *d) { d[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }

__global__ void parent(float *d, const int *sizes) {
  child<<<sizes[threadIdx.x], 64>>>(d);
}

// CHECK: const dim3 __lo_cgrid1 = sizes[threadIdx.x];
// CHECK-NEXT: const dim3 __lo_coarse1((__lo_cgrid1.x + LAUNCHOPT_CFACTOR - 1) / LAUNCHOPT_CFACTOR, __lo_cgrid1.y, __lo_cgrid1.z);

// REMARK: factor-8.cu:15:3: remark: coarsen applied to launch of 'child' (coarsened-kernel: __lo_coarse_child, factor: LAUNCHOPT_CFACTOR (default 8), loop-body: {{.*}})
