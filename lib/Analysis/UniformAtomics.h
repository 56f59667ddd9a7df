#ifndef LAUNCHOPT_ANALYSIS_UNIFORMATOMICS_H
#define LAUNCHOPT_ANALYSIS_UNIFORMATOMICS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <string>
#include <vector>

namespace launchopt {

// An atomic update in a kernel's body that a serial copy may combine in a
// register (runtime/include/launchopt/accumulate.cuh): a statement of its
// own (the old value unused), to an address every thread of the grid names
// alike, built from the kernel's unwritten parameters, constants and
// globals' addresses, which the kernel names nowhere else.
struct UniformAtomic {
  const clang::CallExpr *Call;
  std::string Op;    // the runtime's operation: Add, Sub, Min, Max, And, Or, Xor
  std::string Scope; // Device, Block or System (atomicAdd, _block, _system)
};

// The kernel's combinable atomics, in source order; none when the kernel
// fences, launches, runs assembly, or reads one of the addresses' variables
// anywhere but in these atomics.
std::vector<UniformAtomic> uniformAtomics(const clang::FunctionDecl &Kernel);

} // namespace launchopt

#endif
