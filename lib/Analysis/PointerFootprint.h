#ifndef LAUNCHOPT_ANALYSIS_POINTERFOOTPRINT_H
#define LAUNCHOPT_ANALYSIS_POINTERFOOTPRINT_H

// What a kernel or device function, with everything it launches and calls,
// does through one of its pointer parameters: whether it writes, whether
// every access is a commuting atomic, and an index range over its integer
// parameters that every access stays in (ChildIndependence.h).

#include "FunctionFacts.h"
#include "clang/AST/Expr.h"
#include <map>
#include <optional>
#include <set>
#include <string>

namespace launchopt {

// The index range [Lo, Hi) over a function's integer parameters.
struct Range {
  Poly Lo, Hi;
  std::string Text;
};

struct Footprint {
  // False when some use of the pointer cannot be followed (a copy, `*p`, a
  // callee without a body); Unproved then names it.
  bool Known = false;
  bool Writes = false;
  // An access other than an atomic read-modify-write whose value is unused.
  bool PlainAccess = false;
  // The atomics' functions (atomicAdd, ...), all with their value unused.
  std::set<std::string> Atomics;
  std::optional<Range> Within; // none: anywhere
  // Why no range holds (with Known) or why the footprint is unknown.
  std::string Unproved;
};

// The pointer variable and the offset of an argument `p`, `p + e`, `&p[e]`.
struct PointerArgument {
  const clang::VarDecl *Base = nullptr;
  Poly Offset;
};

// The kind of a CUDA atomic whose applications to one element commute with
// each other ("add" for atomicAdd and atomicSub); nothing for any other
// function.
std::optional<std::string> commutingAtomic(const clang::FunctionDecl &F);

class FootprintAnalysis {
public:
  Footprint of(const clang::FunctionDecl &F, unsigned Param);

  // Whether a function touches memory only through its parameters: no
  // global variable, and only callees with the same property (or without a
  // body and without pointer arguments, such as math functions).
  bool onlyThroughParameters(const clang::FunctionDecl &F);

  static const clang::FunctionDecl *definition(const clang::FunctionDecl *F);
  static const clang::FunctionDecl *calleeOf(const clang::CallExpr *C);
  static std::optional<PointerArgument> pointerArgument(const FunctionFacts &Facts,
                                                        const clang::Expr *E);

  // The range a call's callee footprint covers in the caller, over the
  // caller's names: the callee's range with its parameters replaced by the
  // call's arguments, shifted by the pointer argument's offset.
  static std::optional<Range> rangeAtCall(const FunctionFacts &Facts, const clang::CallExpr &Call,
                                          const clang::FunctionDecl &Callee, const Range &R,
                                          const Poly &Offset);

private:
  static std::vector<Range> candidates(const clang::FunctionDecl &F);
  bool check(const clang::FunctionDecl &F, unsigned Param, Footprint &Claim);
  bool checkUse(const FunctionFacts &Facts, const clang::DeclRefExpr &Ref, Footprint &Claim);
  bool checkArgument(const FunctionFacts &Facts, const clang::Stmt *Use, Footprint &Claim);
  bool checkAtomic(const FunctionFacts &Facts, const clang::CallExpr &Call,
                   const std::optional<PointerArgument> &Argument, Footprint &Claim);
  // Records the first use that a claim fails at; returns false.
  bool failAt(const FunctionFacts &Facts, const clang::Stmt &Use, const std::string &Why = "");

  using FunctionParameter = std::pair<const clang::FunctionDecl *, unsigned>;
  std::map<FunctionParameter, Footprint> Assumed, Done;
  // The assumptions the footprint being computed has read.
  std::set<FunctionParameter> AssumptionsUsed;
  std::map<const clang::FunctionDecl *, bool> Local;
  std::string FailedUse; // of the claim being checked
};

} // namespace launchopt

#endif
