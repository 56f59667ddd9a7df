// A device function reading the built-ins, defined in a header.
__device__ inline int header_gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
