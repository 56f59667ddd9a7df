// The kernel of time-loop-single-kernel.cu (included; never edited).
__global__ void heat_step(const float *in, float *out, int nx, int ny, float alpha) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1)
    return;
  int c = y * nx + x;
  out[c] = in[c] + alpha * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
}
