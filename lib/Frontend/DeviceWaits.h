#ifndef LAUNCHOPT_FRONTEND_DEVICEWAITS_H
#define LAUNCHOPT_FRONTEND_DEVICEWAITS_H

#include "clang/AST/ASTContext.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace launchopt {

// Device-side cudaDeviceSynchronize(): CUDA 11's dynamic parallelism (CDP1)
// let a parent wait for its children; CUDA 12 removed the call from device
// code, and sm_90 has only CDP2. launchopt does not rewrite such waits; it
// says where they are and what to do instead.

// What to do instead, after "file:line:col: <level>: ".
std::string deviceWaitAdvice();

// `file:line:col` of Loc's spelling, as clang prints it; empty when unknown.
std::string positionText(const clang::SourceManager &SM, clang::SourceLocation Loc);

// A call to cudaDeviceSynchronize in a __host__ __device__ function: the
// host-side parse accepts it, the device compilation of a program whose
// kernels call the function rejects it. (In a kernel or a __device__
// function the call does not parse: DeviceLaunchDiagFilter.)
struct DeviceWait {
  std::string Where; // file:line:col
  std::string Key; // file, function and the call's place among its waits: alike in a pass's output
};

// Such calls outside system headers, in source order.
std::vector<DeviceWait> deviceWaitsInHostDeviceFunctions(clang::ASTContext &Context);

} // namespace launchopt

#endif
