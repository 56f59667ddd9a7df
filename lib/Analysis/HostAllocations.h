#ifndef LAUNCHOPT_ANALYSIS_HOSTALLOCATIONS_H
#define LAUNCHOPT_ANALYSIS_HOSTALLOCATIONS_H
// Whether two pointer parameters of a kernel point to different device
// allocations, read from the host code that launches it: at every launch
// of the kernel launchopt sees (from the host, or from the kernel itself
// passing both parameters on unchanged; none from another file of the
// program), the two arguments are distinct allocations the host function
// made with cudaMalloc.
//
// An allocation is a local pointer variable `p` of the launching function
// that nothing but `cudaMalloc(&p, ...)` writes, or an element `a[e]` of a
// local array of pointers whose elements nothing but `cudaMalloc(&a[i],
// ...)` writes (every other use reads them). Two different variables are
// different allocations; two elements of one array are when their indices
// differ for every value of the variables they are made of: indices are
// linear forms over integer locals (a local written only by its initializer
// is replaced by it), and e1 - e2 never vanishes when its constant is not a
// multiple of its coefficients' greatest common divisor (`now` and
// `1 - now`; 0 and 1). Freed and reused addresses are the user's lookout, as
// for any dangling pointer.
#include "LaunchSites.h"
#include <optional>
#include <string>

namespace launchopt {

// The words of the proof that Kernel's parameters A and B (indices) receive
// distinct allocations, or nullopt when it is not proved.
std::optional<std::string> distinctHostAllocations(const LaunchAnalysis &Launches,
                                                   const clang::FunctionDecl &Kernel, unsigned A,
                                                   unsigned B);

} // namespace launchopt

#endif
