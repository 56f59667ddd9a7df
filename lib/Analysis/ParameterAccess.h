#ifndef LAUNCHOPT_ANALYSIS_PARAMETERACCESS_H
#define LAUNCHOPT_ANALYSIS_PARAMETERACCESS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace launchopt {

// An index expression as a polynomial over the names it uses (parameters,
// built-in index variables, opaque sub-expressions), local variables never
// assigned after their declaration replaced by their initialisers:
// `j * nx + i + 1` -> {j*nx: 1, i: 1, 1: 1}.
using IndexMonomial = std::vector<std::string>; // sorted factors; empty = constant
using IndexPolynomial = std::map<IndexMonomial, long long>;
std::string indexText(const IndexPolynomial &P);

// One subscript of a pointer parameter, kept so that code generation can
// redirect it to a register or a shared-memory tile.
struct SubscriptAccess {
  const clang::ArraySubscriptExpr *Expr = nullptr;
  IndexPolynomial Offset; // index minus the thread's site
  bool Reads = false;
  bool Writes = false;
  // For a write: `p[i] = e` whose value is not used (a statement of its
  // own), the only form code generation redirects.
  const clang::BinaryOperator *PlainStore = nullptr;
  // For a read of a shared tile that caches the parameter (TileCache.h):
  // Expr is the tile's subscript, and this the parameter's element it holds.
  std::string CachedRead;
};

// How a kernel touches one pointer parameter through subscripts
// (scalable-kernel-fusion §II-B: read-only / read-write / write-only, thread
// load and stencil neighbourhood).
struct ParameterAccess {
  unsigned Index = 0; // parameter position
  std::string Name;
  bool Reads = false;
  bool Writes = false;
  // Distinct read offsets relative to the site the thread writes (its own
  // stencil site), e.g. {"0", "+1", "-nx"}; their count is the thread load.
  std::vector<std::string> ReadOffsets;
  unsigned HaloRadius = 0; // largest coefficient of any read offset
  // Some read's offset is unknown before the kernel runs: its index is
  // loaded from memory (`a[nb[i]]`, an index array), or is not the site plus
  // scalar parameters and the launch's shape (`a[r * m + k]` in a loop).
  bool Indirect = false;
  // Every thread that runs the kernel stores to the parameter at its own
  // site: a plain store in no branch or loop, with no return before it.
  bool WritesEverySite = false;
  unsigned ElementBytes = 0;
  std::vector<SubscriptAccess> Subscripts;
};

struct KernelAccess {
  std::vector<ParameterAccess> Parameters; // pointer parameters only
  // Why the read/write sets cannot be trusted (a pointer escapes into a
  // call, is dereferenced without a subscript, is written away from the
  // thread's own site); empty when they can.
  std::string Irregular;
  // The index of the thread's own site (what it writes, else what it reads
  // first), over the kernel's own names.
  IndexPolynomial Site;
};

KernelAccess analyzeParameterAccess(const clang::FunctionDecl &Kernel);

// Index expressions of one kernel as polynomials, with the locals that are
// written after their declaration (which do not stand for their
// initialisers) found once.
class KernelIndices {
public:
  explicit KernelIndices(const clang::FunctionDecl &Kernel);
  IndexPolynomial operator()(const clang::Expr *E) const;
  // A local or parameter of the kernel assigned after its declaration.
  bool modified(const clang::VarDecl *V) const { return Modified.count(V) > 0; }

private:
  const clang::ASTContext &Ctx;
  std::set<const clang::VarDecl *> Modified;
};

} // namespace launchopt

#endif
