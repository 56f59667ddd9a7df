// --aggregate=host refuses what the host cannot launch after the parent:
// a parent also launched from device code, one that tail-launches work of
// its own, one launched through a macro, one whose address is taken, one
// never launched from the host here, and a site followed by a launch of the
// same thread that stays on the device in the same stream. The output still
// needs -rdc.
// RUN: %launchopt --aggregate=host %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %nvcc-compile %t.cu
#define LAUNCH_VIA_MACRO(d) viaMacro<<<2, 64>>>(d)

__global__ void leaf(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}
__global__ void finish(float *d) { d[0] = 0; }

__global__ void fromDevice(float *d) { leaf<<<1, 64>>>(d, 3); }
__global__ void top(float *d) { fromDevice<<<1, 1>>>(d); }
__global__ void tailLaunches(float *d) {
  leaf<<<1, 64>>>(d, 3);
  if (threadIdx.x == 0)
    finish<<<1, 1, 0, cudaStreamTailLaunch>>>(d);
}
__global__ void viaMacro(float *d) { leaf<<<1, 64>>>(d, 3); }
__global__ void addressTaken(float *d) { leaf<<<1, 64>>>(d, 3); }
__global__ void notLaunchedHere(float *d) { leaf<<<1, 64>>>(d, 3); }
__global__ void overtaken(float *d, int b) {
  leaf<<<1, 64>>>(d, 3);
  finish<<<1, b>>>(d + 64);
}

void host(float *d) {
  top<<<1, 1>>>(d);
  tailLaunches<<<1, 32>>>(d);
  LAUNCH_VIA_MACRO(d);
  void *kernel = (void *)addressTaken;
  (void)kernel;
  addressTaken<<<1, 1>>>(d);
  overtaken<<<1, 32>>>(d, 32);
}

// CHECK: host-refused.cu:19:40: remark: not aggregated: the parent is also launched from device code (line 20): the host cannot launch its children's aggregated grid after it
// The launch of the device-launched parent from 'top' is taken: its own launch stays.
// CHECK: host-refused.cu:20:33: remark: aggregate applied to launch of 'fromDevice'
// CHECK-SAME: overflow: launched from the device, or deferred when the pending-launch pool is near full (build with -rdc=true): the child's threads cannot run one by one in the launching thread, or it launches kernels itself
// CHECK: host-refused.cu:22:3: remark: not aggregated: the parent tail-launches work of its own, which runs before a grid the host launches after the parent and may need the children's results
// CHECK: host-refused.cu:26:38: remark: not aggregated: the parent's host launch at line 37 cannot be rewritten: the launched kernel's name comes from a macro
// CHECK: host-refused.cu:27:42: remark: not aggregated: the parent is referenced at line 38 other than by a <<<>>> launch (a cudaLaunchKernel call or a kernel pointer, say): the host launches after which its children's aggregated grid must run cannot all be rewritten
// CHECK: host-refused.cu:28:45: remark: not aggregated: the parent is not launched from the host in this file: the launch its children's aggregated grid must follow cannot be rewritten
// CHECK: host-refused.cu:30:3: remark: not aggregated: the parent also launches 'finish' at line 31, which stays a device launch and may share this launch's stream: it would run before the grid the host launches after the parent
// CHECK: host-refused.cu:31:3: remark: not aggregated: the parent thread launches other children into the same stream before this one
// CHECK: remark: aggregate: device-side launches are left, of 'leaf' at line 19 (not aggregated),
// CHECK-SAME: : build with -rdc=true -lcudadevrt
