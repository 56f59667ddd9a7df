#include "FusionSites.h"

#include "clang/AST/ASTContext.h"
#include <algorithm>
#include <map>

namespace launchopt {

using namespace clang;

namespace {

bool isIdentifierChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

bool mentionsWord(llvm::StringRef Text, llvm::StringRef Word) {
  for (size_t At = Text.find(Word); At != llvm::StringRef::npos; At = Text.find(Word, At + 1)) {
    bool Before = At > 0 && isIdentifierChar(Text[At - 1]);
    bool After = At + Word.size() < Text.size() && isIdentifierChar(Text[At + Word.size()]);
    if (!Before && !After)
      return true;
  }
  return false;
}

// Which built-in thread index an atom of an index polynomial is: 0, 1, 2 for
// threadIdx.x/y/z, -1 for none, -2 for an opaque expression using one.
int threadAxis(llvm::StringRef Factor) {
  llvm::StringRef Bare = Factor;
  if (Bare.starts_with("(") && Bare.ends_with(")"))
    Bare = Bare.drop_front().drop_back();
  for (int Axis = 0; Axis < 3; ++Axis)
    if (Bare == std::string("threadIdx.") + "xyz"[Axis])
      return Axis;
  return Factor.contains("threadIdx") ? -2 : -1;
}

} // namespace

std::optional<std::string> canonicalSite(const ASTContext &Ctx, const ExtractedLaunch &L) {
  const FunctionDecl &K = *L.Site->Child;
  std::map<std::string, std::string> Argument;
  for (unsigned A = 0; A < K.getNumParams() && A < L.Site->Arguments.size(); ++A) {
    if (L.ArgumentText[A].empty())
      return std::nullopt;
    Argument[K.getParamDecl(A)->getNameAsString()] = "{" + L.ArgumentText[A] + "}";
  }
  IndexPolynomial Site;
  for (const auto &[Monomial, Coefficient] : L.Access.Site) {
    IndexMonomial M;
    for (const std::string &Factor : Monomial) {
      auto It = Argument.find(Factor);
      if (It != Argument.end()) {
        M.push_back(It->second);
        continue;
      }
      if (Factor.front() == '(')
        for (const auto &[Name, Text] : Argument)
          if (mentionsWord(Factor, Name))
            return std::nullopt;
      M.push_back(Factor);
    }
    std::sort(M.begin(), M.end());
    Site[M] += Coefficient;
  }
  return indexText(Site);
}

std::optional<IndexMonomial> sitePitch(const IndexPolynomial &Site) {
  bool HasX = false;
  IndexMonomial Pitch;
  for (const auto &[Monomial, Coefficient] : Site) {
    int Axes = 0, Axis = -1;
    for (const std::string &F : Monomial)
      if (int A = threadAxis(F); A != -1) {
        ++Axes;
        Axis = A;
      }
    if (!Axes)
      continue;
    if (Axes > 1 || Axis < 0 || Axis == 2 || Coefficient != 1)
      return std::nullopt;
    if (Axis == 0) {
      if (Monomial.size() != 1)
        return std::nullopt;
      HasX = true;
      continue;
    }
    for (const std::string &F : Monomial)
      if (threadAxis(F) != 1)
        Pitch.push_back(F);
    if (Pitch.empty())
      return std::nullopt;
  }
  if (!HasX)
    return std::nullopt;
  return Pitch;
}

std::optional<std::pair<long long, long long>> planarOffset(const IndexPolynomial &Offset,
                                                            const IndexMonomial &Pitch) {
  long long Dx = 0, Dy = 0;
  for (const auto &[Monomial, Coefficient] : Offset) {
    if (Monomial.empty())
      Dx += Coefficient;
    else if (!Pitch.empty() && Monomial == Pitch)
      Dy += Coefficient;
    else
      return std::nullopt;
  }
  return std::make_pair(Dx, Dy);
}

} // namespace launchopt
