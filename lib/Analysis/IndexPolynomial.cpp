#include "IndexPolynomial.h"

#include "llvm/ADT/STLExtras.h"
#include <algorithm>

namespace launchopt {

Poly constant(long long C) { return C ? Poly{{{}, C}} : Poly{}; }
Poly plus(Poly A, const Poly &B, long long Sign) {
  for (const auto &[M, C] : B)
    if ((A[M] += Sign * C) == 0)
      A.erase(M);
  return A;
}
Poly times(const Poly &A, const Poly &B) {
  Poly P;
  for (const auto &[MA, CA] : A)
    for (const auto &[MB, CB] : B) {
      Monomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      llvm::sort(M);
      P = plus(P, Poly{{M, CA * CB}});
    }
  return P;
}

std::optional<long long> lowerBound(const Poly &P) {
  long long Least = 0;
  for (const auto &[M, C] : P) {
    if (M.empty()) {
      Least = C;
      continue;
    }
    if (C < 0)
      return std::nullopt;
    for (const std::string &Atom : M)
      if (Atom.empty() || Atom[0] != '+')
        return std::nullopt;
  }
  return Least;
}

std::string polyText(const Poly &P) {
  std::string Text;
  std::vector<std::pair<Monomial, long long>> Terms(P.begin(), P.end());
  // The constant last: `store + 1`.
  std::stable_partition(Terms.begin(), Terms.end(), [](const auto &T) { return !T.first.empty(); });
  for (const auto &[M, C] : Terms) {
    std::string Term;
    for (const std::string &Atom : M)
      Term += (Term.empty() ? "" : " * ") +
              Atom.substr(Atom[0] == '+', Atom.find('@') - (Atom[0] == '+'));
    long long Magnitude = C < 0 ? -C : C;
    if (Term.empty())
      Term = std::to_string(Magnitude);
    else if (Magnitude != 1)
      Term = std::to_string(Magnitude) + " * " + Term;
    Text += Text.empty() ? (C < 0 ? "-" + Term : Term) : (C < 0 ? " - " : " + ") + Term;
  }
  return Text.empty() ? "0" : Text;
}

std::string atomName(const clang::ValueDecl *D) {
  bool Unsigned = D->getType()->isUnsignedIntegerType();
  return (Unsigned ? "+" : "") + D->getNameAsString() + "@" +
         std::to_string(reinterpret_cast<uintptr_t>(D));
}

} // namespace launchopt
