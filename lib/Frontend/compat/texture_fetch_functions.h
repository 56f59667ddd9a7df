// Clang 19's CUDA wrapper header still includes this file, which CUDA 13
// removed. launchopt puts this empty stand-in before the CUDA headers.
