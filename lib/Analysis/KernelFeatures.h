#ifndef LAUNCHOPT_ANALYSIS_KERNELFEATURES_H
#define LAUNCHOPT_ANALYSIS_KERNELFEATURES_H

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace launchopt {

// Which of x, y, z a built-in index variable is read in (bit 0 = x).
using DimensionMask = unsigned;

// What a kernel's body (and every function it calls, transitively) uses that
// decides whether its threads can be run serially or regrouped.
struct KernelFeatures {
  std::set<std::string> Barriers;       // __syncthreads, __syncwarp, ...
  std::set<std::string> WarpPrimitives; // __shfl_sync, __ballot_sync, ...
  bool UsesSharedMemory = false;
  // Names an `extern __shared__` array: reads the launch's dynamic shared
  // memory size (without one, that size is never read).
  bool UsesDynamicSharedMemory = false;
  bool UsesInlineAsm = false;
  // The callee whose body holds the first inline assembly found (empty when
  // it is the kernel's own body).
  std::string InlineAsmCallee;
  // Every asm reads no special register but the thread's place in its block
  // and warp, and clocks: a child block run by a block of the same threads
  // sees the same values.
  bool InlineAsmSameInABlock = true;
  std::set<std::string> LaunchedKernels; // names of kernels launched
  bool TailLaunches = false;             // some launch goes into cudaStreamTailLaunch
  // Built-in index variables read directly in the kernel body.
  std::map<std::string, DimensionMask> BuiltinDimensions;
  // Called functions that read built-in index variables themselves: a serial
  // copy of the kernel cannot redirect what they see.
  std::set<std::string> CalleesReadingThreadIdentity;
  // User functions called without a definition in this translation unit.
  std::set<std::string> OpaqueCallees;
};

// Computes features for a kernel definition (a template pattern is fine).
KernelFeatures computeKernelFeatures(const clang::FunctionDecl &Kernel);

// Whether D is one of the built-ins threadIdx, blockIdx, blockDim, gridDim
// (declared at namespace scope by the CUDA headers), not a local of the same
// name such as the shadowing copies launchopt writes.
bool isBuiltinIndexVariable(const clang::ValueDecl *D);

// The built-in variable a member access such as `threadIdx.x` (an MS
// property reference in Clang's CUDA headers) reads, or null when its base is
// anything else.
const clang::DeclRefExpr *builtinIndexBase(const clang::MSPropertyRefExpr &Property);

// What a refusal says of a kernel's inline assembly: where it is.
std::string inlineAsmUse(const KernelFeatures &F);

// The built-in variable and axis (0, 1, 2) a member access such as
// `threadIdx.y` reads, or nothing.
std::optional<std::pair<llvm::StringRef, int>> builtinMember(const clang::Expr *E);

// "x", "xy", "xyz" for a mask.
std::string dimensionString(DimensionMask Mask);

} // namespace launchopt

#endif
