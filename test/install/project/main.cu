#include "children.h"
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

int main() {
  const int parents = 100, width = 300;
  int *out;
  if (cudaMalloc(&out, parents * width * sizeof(int)) != cudaSuccess)
    return 1;
  runChildren(out, parents, width);
  std::vector<int> host(parents * width);
  cudaMemcpy(host.data(), out, host.size() * sizeof(int), cudaMemcpyDeviceToHost);
  for (int p = 0; p < parents; ++p)
    for (int i = 0; i < width; ++i)
      if (host[p * width + i] != 3 * p) {
        std::printf("wrong value at %d,%d\n", p, i);
        return 1;
      }
  std::printf("ok\n");
  return 0;
}
