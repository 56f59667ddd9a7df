#include "LaunchBinding.h"

#include "Analysis/SourceText.h"
#include "Analysis/ThreadCount.h"
#include "Support/GeneratedNames.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

namespace launchopt {

namespace {
const char *const DimensionNames[3] = {"x", "y", "z"};
} // namespace

BoundLaunch bindLaunch(clang::ASTContext &Ctx, const LaunchSite &Site, const LaunchText &L,
                       const std::string &Tag) {
  BoundLaunch B;
  const std::optional<FileRange> &Grid = L.GridRange;
  std::string Id = std::to_string(Site.Id);
  B.GridVar = generated::code("@" + Tag + "grid") + Id;
  B.BlockVar = generated::code("@" + Tag + "block") + Id;
  B.ThreadsVar = generated::code("@" + Tag + "threads") + Id;
  ThreadCount Count = recoverThreadCount(Ctx, Site);

  std::string GridText = L.Grid;
  std::string Factors[3];
  std::vector<std::string> Recovered;
  std::vector<std::string> GridFitsCount;
  // Numerators inside the grid expression are bound first and the grid is
  // computed from the bound values, so each is still evaluated once.
  std::vector<std::pair<FileRange, std::string>> Substitutions;
  for (unsigned D = 0; D < 3; ++D) {
    Factors[D] = "(long long)" + B.GridVar + "." + DimensionNames[D] + " * " + B.BlockVar + "." +
                 DimensionNames[D];
    const DimensionThreads &Dim = Count.Dimensions[D];
    if (!Dim.Numerator)
      continue;
    std::optional<FileRange> N = spelledRange(Ctx, Dim.Numerator->getSourceRange());
    if (!N)
      continue;
    std::string NVar = generated::code("@" + Tag + "n") + Id + "_" + DimensionNames[D];
    if (Dim.InLaunchExpression) {
      if (!Grid || !Grid->contains(*N) || !writtenRange(Ctx, Dim.Numerator->getSourceRange()))
        continue;
      Substitutions.push_back({*N, NVar});
    }
    B.Lines.push_back("const auto " + NVar + " = (" + textOf(Ctx, *N) + ");");
    Factors[D] = "(long long)(" + NVar + ")";
    GridFitsCount.push_back("(long long)" + B.GridVar + "." + DimensionNames[D] + " * " +
                            B.BlockVar + "." + DimensionNames[D] + " < (long long)(" + NVar +
                            ") + " + B.BlockVar + "." + DimensionNames[D]);
    Recovered.push_back(std::string(DimensionNames[D]) + ": " + textOf(Ctx, *N) + " (" +
                        Dim.Pattern + ")");
  }
  std::sort(Substitutions.begin(), Substitutions.end(),
            [](const auto &L, const auto &R) { return L.first.Begin > R.first.Begin; });
  for (const auto &[Range, Var] : Substitutions)
    GridText.replace(Range.Begin - Grid->Begin, Range.End - Range.Begin, Var);

  B.Lines.push_back("const dim3 " + B.GridVar + " = " + GridText + ";");
  B.Lines.push_back("const dim3 " + B.BlockVar + " = " + L.Block + ";");
  B.Lines.push_back("const long long " + B.ThreadsVar + " = " + Factors[0] + " * " + Factors[1] +
                    " * " + Factors[2] + ";");
  if (!GridFitsCount.empty()) {
    B.FitsVar = generated::code("@" + Tag + "fits") + Id;
    B.Lines.push_back("const bool " + B.FitsVar + " = " + llvm::join(GridFitsCount, " &&\n    ") +
                      ";");
  }
  B.Recovered =
      Recovered.empty() ? "grid x block (no ceiling division found)" : llvm::join(Recovered, "; ");
  return B;
}

std::string boundDeclarations(const BoundLaunch &B, const std::string &Indent) {
  std::string Out;
  for (const std::string &Line : B.Lines) {
    std::string Indented;
    for (char C : Line)
      Indented += C == '\n' ? "\n" + Indent + "  " : std::string(1, C);
    Out += Indent + "  " + Indented + "\n";
  }
  return Out;
}

} // namespace launchopt
