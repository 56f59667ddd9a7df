// A template kernel launched with its template arguments written from a
// non-template kernel: Clang 19 drops the launch, launchopt recovers it and
// lists it as an ordinary launch, at the column the user wrote.
// RUN: %launchopt --list-launches %s | %FileCheck %s
// RUN: %launchopt --list-launches --format=json %s | %FileCheck %s --check-prefix=JSON

template <typename T, int Scale = 2>
__global__ void scale(T *d, int n) {
  if (threadIdx.x < n)
    d[threadIdx.x] *= Scale;
}

__global__ void parent(float *d, int n) { /* before */ scale<float><<<1, n>>>(d, n); }

// CHECK-NOT: unresolved
// CHECK: launch #1 at {{.*}}recovered-template-launch.cu:13:56: device-side, 'parent' launches 'scale'
// CHECK-NEXT: grid: 1
// CHECK-NEXT: block: n
// CHECK: child uses: index variables threadIdx.x
// JSON: "unresolved": []
