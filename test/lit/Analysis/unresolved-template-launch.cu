// A template kernel launched from a non-template kernel with its template
// arguments deduced and a default left to apply: Clang 19 drops the launch and
// launchopt cannot recover it (the address of a template needs every
// argument, and which default applies is the compiler's to say), so it is
// listed as unresolved and every pass leaves it as is. A launch whose
// arguments' types show every template argument is recovered
// (Threshold/template-child-deduced-non-template-parent.cu).
// RUN: %launchopt --list-launches %s | %FileCheck %s --check-prefix=LIST
// RUN: %launchopt --threshold --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks

template <typename T, int Width = 4> __global__ void scale(T *d, T f) {
  d[threadIdx.x] *= f * T(Width);
}

__global__ void parent(float *d) { scale<<<1, 32>>>(d, 2.0f); }

// LIST: unresolved launch at {{.*}}unresolved-template-launch.cu:17:36: scale<<<1, 32>>>(d, 2.0f)
// LIST-NEXT: Clang 19 cannot resolve this device-side launch of a template kernel from a non-template kernel
// REMARK: unresolved-template-launch.cu:17:36: remark: not transformed: Clang 19 cannot resolve this device-side launch of a template kernel from a non-template kernel; left untouched (launchopt recovers such a launch when it writes every template argument
