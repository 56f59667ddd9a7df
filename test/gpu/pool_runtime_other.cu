// The second file of pool_runtime.cu's program (LAUNCHOPT_PROGRAM_POOL): it
// resets the pool and reads it through its own copy of the runtime.
#include <launchopt/aggregation.cuh>

void otherFileResetPool(unsigned threads) {
  launchopt::resetPool(0, dim3(1), dim3(threads), {0, 0, 0, 0});
  cudaDeviceSynchronize();
}

void otherFilePool(unsigned char **base, unsigned long long *capacity) {
  cudaMemcpyFromSymbol(base, launchopt::poolBase, sizeof *base);
  cudaMemcpyFromSymbol(capacity, launchopt::poolCapacity, sizeof *capacity);
}
