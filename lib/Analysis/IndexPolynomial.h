#ifndef LAUNCHOPT_ANALYSIS_INDEXPOLYNOMIAL_H
#define LAUNCHOPT_ANALYSIS_INDEXPOLYNOMIAL_H

// Integer index expressions as polynomials, for the range proofs of child
// independence (ChildIndependence.h).

#include "clang/AST/Decl.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// An integer expression as a polynomial over atoms (a variable, a built-in
// index); the atoms of one polynomial are named uniquely by their declaration
// (atomName), an unsigned one marked '+' first.
using Monomial = std::vector<std::string>;
using Poly = std::map<Monomial, long long>;

Poly constant(long long C);
Poly plus(Poly A, const Poly &B, long long Sign = 1);
Poly times(const Poly &A, const Poly &B);

// The least value of P when every atom marked non-negative ('+' first) is
// non-negative and has a non-negative coefficient; nothing otherwise.
std::optional<long long> lowerBound(const Poly &P);

// "store + 1" for a polynomial, with the names as written.
std::string polyText(const Poly &P);

std::string atomName(const clang::ValueDecl *D);

} // namespace launchopt

#endif
