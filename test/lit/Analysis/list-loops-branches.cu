// The listing says whether a launch sits in a loop and/or a branch.
// RUN: %launchopt --list-launches %s | %FileCheck %s

__global__ void child(int *d, int n) { d[threadIdx.x] = n; }

__global__ void parent(int *d, const int *sizes, int k) {
  child<<<1, 32>>>(d, 0);
  for (int j = 0; j < k; ++j)
    child<<<(sizes[j] + 31) / 32, 32>>>(d, sizes[j]);
  if (k > 2)
    child<<<1, 32>>>(d, 2);
  while (k-- > 0) {
    switch (k) {
    case 1:
      child<<<1, 32>>>(d, 1);
      break;
    }
  }
}

// CHECK: launch #1 at {{.*}}list-loops-branches.cu:7:3: device-side, 'parent' launches 'child'
// CHECK: context: not in loop, not in branch
// CHECK: launch #2 at {{.*}}list-loops-branches.cu:9:5:
// CHECK: context: in loop, not in branch
// CHECK: launch #3 at {{.*}}list-loops-branches.cu:11:5:
// CHECK: context: not in loop, in branch
// CHECK: launch #4 at {{.*}}list-loops-branches.cu:15:7:
// CHECK: context: in loop, in branch
