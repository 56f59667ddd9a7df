// The kernels child.cu defines and main.cu launches (separate compilation,
// -rdc). addRow's declaration leaves out the definition's top-level const.
#pragma once

__global__ void addRow(const float *in, float *out, int n);
__global__ void spreadRow(float *out, int n);
