// T1 and T2 (the persistent megakernel) are in the flag's grammar but not
// built yet: every site says so. A value outside the grammar is a usage
// error (exit 2).
// RUN: %launchopt --remove-launches=T1 %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=T1 < %t.remarks
// RUN: %launchopt --remove-launches=T2 %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=T2 < %t.remarks
// RUN: sh -c '%launchopt --remove-launches=T5 %s -o %t.cu 2> %t.err; test $? -eq 2'
// RUN: %FileCheck %s --check-prefix=USAGE < %t.err
#include <cuda_runtime.h>

__global__ void child(int *out) { out[threadIdx.x] = 1; }
__global__ void parent(int **outs) { child<<<1, 32>>>(outs[threadIdx.x]); }

// T1: :13:38: remark: not removed: T1 (CB* -> PB*) (a persistent parent grid that runs the recorded child blocks) is not implemented yet
// T2: :13:38: remark: not removed: T2 (CK* -> PB*) (a persistent parent grid that runs the recorded child blocks) is not implemented yet
// USAGE: --remove-launches takes
