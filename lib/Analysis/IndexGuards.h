#ifndef LAUNCHOPT_ANALYSIS_INDEXGUARDS_H
#define LAUNCHOPT_ANALYSIS_INDEXGUARDS_H

// Conditions that pin a built-in index to zero along some axes, as code
// writes them around a launch: `if (threadIdx.x == 0 && threadIdx.y == 0)`,
// `if (tid != 0) return;` before it, `if (blockIdx.x == 0)`.

#include "clang/AST/Stmt.h"

namespace launchopt {

enum class IndexVariable { Thread, Block }; // threadIdx, blockIdx

// What the guards compare the index with: zero, or any value that every
// thread of one block computes alike (`threadIdx.x == blockDim.x - 1`,
// `== NUM_THREADS - 1`): either way one thread of a block passes.
enum class IndexPin { Zero, BlockInvariant };

// The axes (bit 0/1/2: x/y/z) a condition requires to be zero when it holds:
// a conjunction of `i.<axis> == 0` (either side) and `!i.<axis>`. A local
// never written after its initialisation from such an index stands for it
// (`int tid = threadIdx.x;`).
unsigned zeroWhenTrue(const clang::Expr *Cond, IndexVariable V, IndexPin Pin = IndexPin::Zero);

// The axes a condition leaves zero when it fails: a disjunction of
// `i.<axis> != 0`, `i.<axis> > 0` and `i.<axis>`.
unsigned zeroWhenFalse(const clang::Expr *Cond, IndexVariable V, IndexPin Pin = IndexPin::Zero);

// The axes that early returns among Body's statements before Reached pin to
// zero (`if (threadIdx.x != 0) return;`): past them only the threads of
// index zero along those axes go on.
unsigned zeroAfterEarlyReturns(const clang::CompoundStmt &Body, const clang::Stmt *Reached,
                               IndexVariable V, IndexPin Pin = IndexPin::Zero);

} // namespace launchopt

#endif
