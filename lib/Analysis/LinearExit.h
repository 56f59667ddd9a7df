#ifndef LAUNCHOPT_ANALYSIS_LINEAREXIT_H
#define LAUNCHOPT_ANALYSIS_LINEAREXIT_H

// The guard with which a kernel ends the threads that a ceiling division
// adds past its data: `int i = off + blockIdx.x * blockDim.x + threadIdx.x;
// if (i >= n) return;` (or the whole body under `if (i < n)`). The guard's
// comparison of the linear x index with a bound that every thread sees alike
// holds, once it holds for one x index, for every later x index, assuming
// the index arithmetic does not wrap within the grid. A loop that runs the
// child's threads one by one in x order (a serial copy) can stop at the
// first x index it ends: the threads after it would return at once. With
// degree-sized children of fixed blocks (a 64-thread block for 3 edges)
// that loop ran 64 threads for 3.

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include <optional>
#include <vector>

namespace launchopt {

struct LinearExit {
  // The declarations before the guard, in order: locals whose initializers
  // read nothing but parameters, constants and the built-in index variables.
  std::vector<const clang::DeclStmt *> Leading;
  // A comparison of the linear x index (an offset every thread sees alike,
  // plus blockIdx.x * blockDim.x + threadIdx.x) with such a bound.
  const clang::Expr *Comparison = nullptr;
  // The thread returns where Comparison is false (`if (i < n) { ... }`,
  // one operand of an `&&`), rather than where it is true (`if (i >= n)
  // return;`, one operand of an `||`).
  bool ExitsWhenFalse = false;
};

// The kernel's exit on its linear x index, or nothing when its body does not
// start with one in a form this recognises.
std::optional<LinearExit> findLinearExit(const clang::FunctionDecl &Kernel);

} // namespace launchopt

#endif
