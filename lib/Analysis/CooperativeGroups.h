#ifndef LAUNCHOPT_ANALYSIS_COOPERATIVEGROUPS_H
#define LAUNCHOPT_ANALYSIS_COOPERATIVEGROUPS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <optional>
#include <string>

namespace launchopt {

// The CUDA cooperative-groups library is code launchopt cannot copy (it sits
// in the CUDA headers), yet its groups' index queries read the built-in
// index variables. They are modelled as built-in reads: a copy of a body in
// which the built-ins are shadowed replaces each query by the expression the
// library computes, written over the names blockIdx, threadIdx, blockDim and
// gridDim, so that it reads the shadowed values.

// Whether D is declared in namespace cooperative_groups (or one inside it).
bool isCooperativeGroupsDecl(const clang::Decl *D);

// A call to a cooperative-groups group's member function.
struct GroupQuery {
  std::string Group;  // the group's class: thread_block, grid_group, ...
  std::string Member; // thread_rank, size, ...
  // The replacement over the built-in names (cast to the call's type), or
  // empty when the member reads no built-in (a static tile's size, sync).
  std::string Expression;
  // Why a member that reads the built-ins cannot be modelled, or empty.
  std::string Problem;
  bool BlockBarrier = false; // sync() of a thread block: like __syncthreads
  bool WarpCollective = false; // a tile's or coalesced group's sync, shfl, vote...
};

// The query a call makes, or nothing when it is not a member call on a
// cooperative-groups group.
std::optional<GroupQuery> groupQueryOf(const clang::ASTContext &Ctx, const clang::CallExpr &Call);

} // namespace launchopt

#endif
