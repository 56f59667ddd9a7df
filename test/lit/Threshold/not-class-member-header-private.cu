// A member of a header's class reads a private field: its copy outside the
// class would not compile, so the launch is left as written, and the remark
// names the member and the field.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks -- -I%S/Inputs
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %nvcc-compile -I %S/Inputs %t.cu

#include "graph-class.cuh"

__global__ void child(csr::Sealed s, int *out) { out[s.slot()] = 1; }

__global__ void parent(csr::Sealed s, int *out, int n) {
  child<<<(n + 31) / 32, 32>>>(s, out);
}

// CHECK-NOT: __lo_sh_
// CHECK: child<<<(n + 31) / 32, 32>>>(s, out);
// REMARK: not-class-member-header-private.cu:14:3: remark: not thresholded: child calls 'slot', which reads the built-in index variables, a member of 'Sealed' defined in an included file; its copy outside the class uses the private member 'base_', which it cannot access
