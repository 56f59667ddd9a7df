#ifndef LAUNCHOPT_ANALYSIS_FUNCTIONFACTS_H
#define LAUNCHOPT_ANALYSIS_FUNCTIONFACTS_H

// What one function knows about its integer values at a statement, for the
// range proofs of child independence (ChildIndependence.h): the polynomials
// of its expressions and the inequalities that hold there.

#include "IndexPolynomial.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include <optional>
#include <vector>

namespace launchopt {

// Every place F writes Var (assignment, increment, address taken).
std::vector<const clang::Expr *> writesOf(const clang::FunctionDecl &F, const clang::VarDecl *Var);

// The statement above S; a local's initialiser is under its declaration
// statement.
const clang::Stmt *parentOf(clang::ASTContext &Ctx, const clang::Stmt *S);

bool isInside(const clang::Stmt *Inner, const clang::Stmt *Outer, clang::ASTContext &Ctx);

// `Less < Greater`, or `<=` when not Strict.
struct Fact {
  Poly Less, Greater;
  bool Strict = false;
};

class FunctionFacts {
public:
  FunctionFacts(const clang::FunctionDecl &F) : F(F), Ctx(F.getASTContext()) {}

  // E as a polynomial over F's variables (a local written nowhere but its
  // initialiser stands for the initialiser); nothing for other expressions.
  std::optional<Poly> poly(const clang::Expr *E, int Depth = 0) const;

  // The facts a condition gives when it is true (Holds) or false.
  void addCondition(const clang::Expr *Cond, bool Holds, std::vector<Fact> &Out) const;

  // The loop variable of `for (int i = A; i < B; ++i)` written only by the
  // increment, with A and B.
  struct CountedLoop {
    const clang::VarDecl *Var = nullptr;
    Poly From, To;
  };
  std::optional<CountedLoop> countedLoop(const clang::ForStmt &For) const;

  // The facts at S: enclosing conditions (the left operand of a && or ||
  // whose right operand S is in too), earlier early returns, loop bounds,
  // counters and locals that only step one way.
  std::vector<Fact> factsAt(const clang::Stmt *S, bool WithCounters = true) const;

  // Whether X < Y (X <= Y when not Strict) follows from one of Facts or two
  // of them chained.
  bool provesLess(const Poly &X, const Poly &Y, bool Strict, const std::vector<Fact> &Facts) const;

  const clang::FunctionDecl &function() const { return F; }
  clang::ASTContext &context() const { return Ctx; }

private:
  static bool returnsOnly(const clang::Stmt *S);
  void addCounters(std::vector<Fact> &Facts) const;
  void addMonotone(const clang::VarDecl *V, const std::vector<const clang::Expr *> &Writes,
                   std::vector<Fact> &Out) const;
  std::vector<Fact> factsAtStep(const clang::Stmt *Step) const;
  bool constantIn(const clang::Expr *E, const clang::Stmt *Scope) const;
  bool constantIn(const Poly &P, const clang::Stmt *Scope) const;

  const clang::FunctionDecl &F;
  clang::ASTContext &Ctx;
  mutable bool CountersDone = false;
  mutable std::vector<Fact> Counters;
};

} // namespace launchopt

#endif
