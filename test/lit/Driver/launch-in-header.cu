// A launch written in an included header is not edited, by any pass, but it
// is not passed over in silence either: the report, the remarks, the launch
// listing and the summary name it, where it is written. The main file's own
// launch is transformed as usual.
// RUN: %launchopt --threshold %s -o %t.cu --report=%t.txt -- -I%S/Inputs 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %launchopt --list-launches %s -- -I%S/Inputs | %FileCheck %s --check-prefix=LIST
// RUN: %launchopt --list-launches --summary %s -- -I%S/Inputs | %FileCheck %s --check-prefix=SUMMARY
// RUN: %nvcc-compile -I%S/Inputs %t.cu

#include "launching-helper.cuh"

#ifndef CHILD_IN_HEADER
__global__ void scaleRange(float *cells, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    cells[i] *= 2.f;
}
#endif

__global__ void top(float *cells, const int *sizes) {
  scaleLater(cells + threadIdx.x * 1024, sizes[threadIdx.x]);
}

__global__ void wide(float *cells, const int *sizes) {
  if (sizes[threadIdx.x] > 4096)
    scaleRange<<<(sizes[threadIdx.x] + 255) / 256, 256>>>(cells, sizes[threadIdx.x]);
}

// REPORT: launch #1 at {{.*}}launch-in-header.cu:28:5 ('wide' -> 'scaleRange'): threshold: applied
// REPORT: launch #0 at {{.*}}launching-helper.cuh:17:5 ('scaleLater' -> 'scaleRange'): transform: not applied: the launch is written in the included file '{{.*}}launching-helper.cuh', which launchopt does not edit; left untouched (launchopt edits the files it is given: move 'scaleLater' into one of them to have its launch transformed)
// REMARK: launching-helper.cuh:17:5: remark: not transformed: the launch is written in the included file
// LIST: launch at {{.*}}launching-helper.cuh:17:5, in an included file (not edited): device-side, 'scaleLater' launches 'scaleRange'
// LIST: launch at {{.*}}launching-helper.cuh:23:3, in an included file (not edited): device-side, 'tiledLater' launches 'tiled'
// SUMMARY: device-side launch sites: 3 in 1 file(s)
// SUMMARY: 2  written in an included file, which launchopt does not edit

// A child defined in a header is left as written by the passes that would
// have to copy it whole and cannot place the copy after the #include (T1-T3;
// thresholding, spawn, T4, coarsening and aggregation copy it there:
// Threshold/child-in-header.cu, Spawn/child-in-header.cu,
// RemoveLaunches/child-in-header.cu, Aggregate/child-in-header.cu,
// Coarsen/child-in-header.cu), with where it is defined.
// RUN: %launchopt --remove-launches=T3 %s -o %t.child.cu --report=%t.child.txt -- -I%S/Inputs -DCHILD_IN_HEADER
// RUN: %FileCheck %s --check-prefix=CHILD < %t.child.txt
// CHILD: ('wide' -> 'scaleRange'): remove-launches: not applied: the child kernel is defined in the included file '{{.*}}launching-helper.cuh', whose kernels only --threshold, --coarsen, --aggregate, --spawn and --remove-launches=T4 copy: define it in a file launchopt is given
