// The kernels of the two-file program: the child is defined in child.cu and
// launched from the parent in main.cu (separate compilation, -rdc).
#pragma once

constexpr int kBins = 64;

// Adds the values of rows[begin, end) into the row's histogram.
__global__ void binRow(const int *values, int begin, int end, unsigned *histogram);
