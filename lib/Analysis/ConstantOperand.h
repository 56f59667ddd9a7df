#ifndef LAUNCHOPT_ANALYSIS_CONSTANTOPERAND_H
#define LAUNCHOPT_ANALYSIS_CONSTANTOPERAND_H

// Launch configuration operands known before the program runs.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace launchopt {

// The expression inside temporaries, casts and functional casts (`dim3(n)`
// as written, without what Clang built around it).
const clang::Expr *stripConstruction(const clang::Expr *E);

// A non-negative integer constant, or nothing. A local never written after
// its initialisation counts as its initialiser (`int threads = 256;`).
std::optional<uint64_t> constantInteger(const clang::ASTContext &Ctx, const clang::Expr *E);

// A configuration operand's value when it is a constant: an integer, or a
// dim3 of integers (the thread count: their product), also through such a
// local (`dim3 block(16, 16);`).
std::optional<uint64_t> constantOperand(const clang::ASTContext &Ctx, const clang::Expr *Operand);

// A configuration operand's dimensions when they are constants: an integer
// n is {n, 1, 1}; a dim3 gets 1 for the dimensions it leaves out.
std::optional<std::array<uint64_t, 3>> constantShape(const clang::ASTContext &Ctx,
                                                     const clang::Expr *Operand);

struct LaunchSite;

// A launch operand in a template kernel that names the template's non-type
// parameters (`NUM_THREADS`, `2 * NUM_THREADS * sizeof(int)`): its
// dimensions (an integer n is {n, 1, 1}) under the template arguments that
// each of Instantiations, launches of the template, writes or resolves to;
// nothing unless all of them give the same constants.
std::optional<std::array<uint64_t, 3>>
constantShapeUnder(const clang::ASTContext &Ctx, const clang::FunctionDecl &Template,
                   const clang::Expr *Operand,
                   const std::vector<const LaunchSite *> &Instantiations);

} // namespace launchopt

#endif
