#ifndef LAUNCHOPT_ANALYSIS_THREADLOOPS_H
#define LAUNCHOPT_ANALYSIS_THREADLOOPS_H

// Whether one thread of a kernel may run a loop. A child's thread count says
// how much work a launch is only when each thread does a bounded amount:
// triangle counting's child has a thread per edge that walks two adjacency
// lists, so a 40-thread child on a hub's edges is not small work. Passes that
// run small children in the launching thread ask this first.

#include "clang/AST/Decl.h"

namespace launchopt {

// A for, while, do or range-for statement, a goto or a recursion, in
// Kernel's body or in a function it calls (transitively, through the
// definitions this translation unit has; launches are not calls). A loop
// whose trip count is an integer constant of at most LoopConstantLimit does
// not count. A call to a function without a body here counts as a loop: its
// work is unknown.
bool threadsMayLoop(const clang::FunctionDecl &Kernel);

constexpr unsigned LoopConstantLimit = 8;

} // namespace launchopt

#endif
