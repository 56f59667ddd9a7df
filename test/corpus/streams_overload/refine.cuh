// The entry of the refinement: one thread per chunk of the cells.
#pragma once

constexpr int kLevels = 6;

// levels[d * n + i] receives cell i's value at refinement depth d.
__global__ void refine(const int *cells, int *levels, int n);
