#ifndef LAUNCHOPT_FRONTEND_DEVICEONLYLAUNCHES_H
#define LAUNCHOPT_FRONTEND_DEVICEONLYLAUNCHES_H

#include "clang/AST/ASTContext.h"
#include <string>
#include <vector>

namespace launchopt {

// A launch written in a branch that only the device side of the compilation
// takes (`#if __CUDA_ARCH__ >= 350 child<<<…>>>(…); #else … #endif`, the
// guard older dynamic-parallelism code wrote): launchopt reads the host side
// of a file, where __CUDA_ARCH__ is undefined and that branch is skipped, so
// the launch is never seen and stays as written.
struct DeviceOnlyLaunch {
  std::string Where;  // file:line:col of the `<<<`
  std::string Kernel; // the name written before it, or "" when none is
  std::string Guard;  // the directive that skipped it, as written
  unsigned GuardLine;
  std::string Key; // file, the launch line's text and its place among equal lines
};

// Such launches in the files of the parse outside system headers, found in
// their text: a `<<<` on a line inside a conditional whose directives name
// __CUDA_ARCH__, where the parse has no kernel launch.
std::vector<DeviceOnlyLaunch> deviceOnlyLaunches(clang::ASTContext &Context);

// What the warning says after "file:line:col: warning: ".
std::string deviceOnlyLaunchAdvice(const DeviceOnlyLaunch &Launch);

} // namespace launchopt

#endif
