// The kernels child.cu defines and main.cu launches.
#pragma once

__global__ void scale(float *data, int n, float factor);
__global__ void normalise(float *data, int n);
