// --aggregate=host takes template parents and template children: the
// aggregated kernel, the arming kernel and the host launcher are templates,
// and the host launches name them with the parent's template arguments
// written out, deduced ones included. A child in another namespace is
// named qualified. A template host function whose launch leaves the
// parent's arguments to deduction cannot name them: refused.
// RUN: %launchopt --aggregate=host %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --aggregate=threads:host %s -o %t.threads.cu 2> /dev/null
// RUN: %nvcc-compile %t.threads.cu

namespace lib {
template <typename T, int Threads = 128> __global__ void add(T *d, int n, T amount) {
  int i = blockIdx.x * Threads + threadIdx.x;
  if (i < n)
    d[i] += amount;
}
} // namespace lib

template <typename V> __global__ void parent(V *d, const int *len, int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < segments)
    lib::add<V><<<(len[s] + 127) / 128, 128>>>(d + s * 4096, len[s], V(1));
}

template <typename V> __global__ void generic(V *d, const int *len) {
  lib::add<V><<<(len[threadIdx.x] + 127) / 128, 128>>>(d, len[threadIdx.x], V(2));
}

template <typename V> void runGeneric(V *d, const int *len) { generic<<<1, 32>>>(d, len); }

void host(float *f, double *g, const int *len) {
  parent<<<4, 64>>>(f, len, 256);
  parent<double><<<4, 64>>>(g, len, 256);
  runGeneric(f, len);
}

// REMARKS: host-templates.cu:25:5: remark: aggregate applied to launch of 'add'
// REMARKS-SAME: host-launch: after the parent's launch at line 35, line 36, in its stream
// REMARKS: host-templates.cu:29:3: remark: not aggregated: the parent's host launch at line 32 cannot be rewritten: the launch of 'generic' leaves template arguments to deduction inside a template, where the generated functions cannot name them: write the template arguments out

// CHECK: // the launch it belongs to and runs as that launch's original block.
// CHECK-NEXT: template <typename T, int Threads>
// CHECK-NEXT: __global__ void __lo_agg_add(const launchopt::HostAggregation *__lo_host)
// CHECK: __lo_part_add<T, Threads>(
// CHECK: // launches for the grid about to start.
// CHECK-NEXT: template <typename V>
// CHECK-NEXT: static __global__ void __lo_arm_parent(launchopt::PoolView __lo_pool, dim3 __lo_grid, dim3 __lo_block)
// CHECK: // the aggregated grids of its children (host_aggregation.cuh says how they are sized).
// CHECK-NEXT: template <typename V>
// CHECK-NEXT: static void __lo_hostlaunch_parent(cudaStream_t __lo_stream)
// CHECK-NEXT: {
// CHECK-NEXT: launchopt::launchHostAggregated(::lib::__lo_agg_add<V, (int)128>,
// CHECK: generic<<<1, 32>>>(d, len);
// CHECK: __lo_arm_parent<float><<<1, 1, 0, __lo_hstream>>>
// CHECK-SAME: parent<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(f, len, 256); __lo_hostlaunch_parent<float>(__lo_hstream);
// CHECK: __lo_arm_parent<double><<<1, 1, 0, __lo_hstream>>>
// CHECK-SAME: __lo_hostlaunch_parent<double>(__lo_hstream);
