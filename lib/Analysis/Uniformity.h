#ifndef LAUNCHOPT_ANALYSIS_UNIFORMITY_H
#define LAUNCHOPT_ANALYSIS_UNIFORMITY_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <vector>

namespace launchopt {

// Which parent threads must see the same value.
enum class UniformityScope { Warp, Block, Grid };

// Whether Value, evaluated by any two threads of one Scope of Parent, gives
// the same result: literals and constants, the parent's parameters that are
// never written, gridDim and blockDim, blockIdx within a block or warp,
// locals initialised from such values and never written again, and
// arithmetic over them. Memory reads and calls are not uniform: memory can
// change between the threads' reads.
//
// ParametersPerGrid: set when one grid of Parent may run the blocks of
// several of its launches (an aggregated grid of Parent); at grid scope only
// the parameters it marks are the same for all of them, and gridDim and
// blockDim differ.
bool isUniform(clang::ASTContext &Ctx, const clang::Expr &Value, const clang::FunctionDecl &Parent,
               UniformityScope Scope, const std::vector<bool> *ParametersPerGrid = nullptr);

} // namespace launchopt

#endif
