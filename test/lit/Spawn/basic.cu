// A launch the serial copy can replace asks the controller: a ticket for the
// spawned copy, else (or when the pool refuses the launch) the serial copy.
// The spawned copy reports its finished blocks after a barrier; the file
// lists its sites for the counters.
// RUN: %launchopt --spawn %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %nvcc-compile -DLAUNCHOPT_COUNTERS %t.cu

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[i] += 1;
}

__global__ void parent(int *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 63) / 64, 64>>>(d, n);
}

// CHECK: launchopt runtime: launchopt/spawn.cuh
// CHECK: static __device__ void __lo_spawn_thread_child(int *d, int n, const uint3 __lo_blockIdx,
// CHECK: static __device__ void __lo_spawn_serial_child(int *d, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK: static __global__ void __lo_spawned_child(int *d, int n, const unsigned __lo_ticket)
// CHECK-NEXT: {
// CHECK-NEXT: const unsigned long long __lo_start = launchopt::spawn::blockStarted(threadIdx);
// CHECK-NEXT: __lo_spawn_thread_child(d, n, blockIdx, threadIdx, blockDim, gridDim);
// CHECK-NEXT: const unsigned long long __lo_done = launchopt::spawn::now();
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: launchopt::spawn::blockFinished(__lo_ticket, __lo_start, __lo_done, threadIdx);
// CHECK: { // launchopt: spawn-controlled launch of 'child'
// CHECK-NEXT: const auto __lo_sn1_x = (n);
// CHECK-NEXT: const dim3 __lo_sgrid1 = (__lo_sn1_x + 63) / 64;
// CHECK-NEXT: const dim3 __lo_sblock1 = 64;
// CHECK: const unsigned __lo_sticket1 = launchopt::spawn::admit(1u, __lo_sgrid1, __lo_sblock1, __lo_sthreads1,
// CHECK-NEXT: !__lo_sfits1, true);
// CHECK-NEXT: if (__lo_sticket1 != 0)
// CHECK-NEXT: __lo_spawned_child<<<__lo_sgrid1, __lo_sblock1>>>(d, n, __lo_sticket1);
// CHECK-NEXT: if (__lo_sticket1 == 0 ||
// CHECK-NEXT: !launchopt::spawn::launched(1u, __lo_sticket1, __lo_sgrid1, __lo_sthreads1))
// CHECK-NEXT: __lo_spawn_serial_child(d, n, __lo_sgrid1, __lo_sblock1);
// CHECK: #ifdef LAUNCHOPT_COUNTERS
// CHECK: static const launchopt::spawn::CounterSite __lo_spawn_sites[] = {
// CHECK-NEXT: {1u, "{{.*}}basic.cu:20"},
// CHECK-NEXT: };
// CHECK-NEXT: static const launchopt::spawn::CounterRegistration __lo_spawn_counters(__lo_spawn_sites, 1u);

// REMARK: basic.cu:20:3: remark: spawn applied to launch of 'child' (serial-function: __lo_spawn_serial_child, serial-without-controller: at most LAUNCHOPT_SPAWN_SERIAL_THREADS threads (its threads run no loop), spawned-kernel: __lo_spawned_child
