// The header declares a second kernel of the name the test defines.
__global__ void sweep(int *d, int n, int depth);
