// A file that does not parse: exit 1, clang's error with file:line, and no
// output file.
// RUN: rm -f %t.out
// RUN: sh -c '%launchopt --threshold %s -o %t.out 2> %t.err; test $? -eq 1'
// RUN: %FileCheck %s < %t.err
// RUN: not test -e %t.out

__global__ void child(int *d) { d[threadIdx.x] = 0 }

// CHECK: parse-error.cu:8:51: error: expected ';'
// CHECK: launchopt: error: '{{.*}}parse-error.cu' could not be parsed
