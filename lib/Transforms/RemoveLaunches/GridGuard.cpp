#include "GridGuard.h"

#include "Analysis/SourceText.h"
#include "Analysis/ThreadCount.h"
#include "Support/GeneratedNames.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

namespace launchopt {

namespace {

const char *const Dimensions[3] = {"x", "y", "z"};

} // namespace

GridGuard guardLaunch(clang::ASTContext &Ctx, const LaunchSite &Site, const LaunchText &L) {
  GridGuard G;
  std::string Id = std::to_string(Site.Id);
  G.GridVar = generated::code("@grid") + Id;
  G.BlockVar = generated::code("@block") + Id;
  const std::optional<FileRange> &Grid = L.GridRange;
  std::string GridText = L.Grid;
  ThreadCount Count = recoverThreadCount(Ctx, Site);
  std::vector<std::string> Fits, Counts;
  // A numerator written in the grid expression is bound first and the grid
  // computed from the bound value, so it is still evaluated once.
  std::vector<std::pair<FileRange, std::string>> Substitutions;
  for (unsigned D = 0; D < 3 && Grid; ++D) {
    const DimensionThreads &Dim = Count.Dimensions[D];
    if (!Dim.Numerator)
      continue;
    std::optional<FileRange> N = spelledRange(Ctx, Dim.Numerator->getSourceRange());
    if (!N)
      continue;
    std::string NVar = generated::code("@n") + Id + "_" + Dimensions[D];
    if (Dim.InLaunchExpression) {
      if (!Grid->contains(*N) || !writtenRange(Ctx, Dim.Numerator->getSourceRange()))
        continue;
      Substitutions.push_back({*N, NVar});
    }
    G.Lines.push_back("const auto " + NVar + " = (" + textOf(Ctx, *N) + ");");
    std::string Dimension = Dimensions[D];
    Fits.push_back("(long long)" + G.GridVar + "." + Dimension + " * " + G.BlockVar + "." +
                   Dimension + " < (long long)(" + NVar + ") + " + G.BlockVar + "." + Dimension);
    Counts.push_back(Dimension + ": " + textOf(Ctx, *N));
  }
  std::sort(Substitutions.begin(), Substitutions.end(),
            [](const auto &A, const auto &B) { return A.first.Begin > B.first.Begin; });
  for (const auto &[Range, Var] : Substitutions)
    GridText.replace(Range.Begin - Grid->Begin, Range.End - Range.Begin, Var);
  G.Lines.push_back("const dim3 " + G.GridVar + " = " + GridText + ";");
  G.Lines.push_back("const dim3 " + G.BlockVar + " = " + L.Block + ";");
  G.Launchable = "launchopt::removal::launchable(" + G.GridVar + ", " + G.BlockVar + ")";
  G.Fits = llvm::join(Fits, " && ");
  G.Counts = llvm::join(Counts, "; ");
  return G;
}

std::string guardedRun(const GridGuard &G, const LaunchText &L, const std::string &Run,
                       bool KeepLaunch) {
  const std::string &I = L.Indent;
  std::string Out;
  for (const std::string &Line : G.Lines)
    Out += I + "  " + Line + "\n";
  Out += I + "  if (!" + G.Launchable + ") {\n";
  Out += I + "    // the launch would fail: its child never runs\n";
  if (!G.Fits.empty() && KeepLaunch) {
    Out += "#ifdef __CUDACC_RDC__\n";
    Out += I + "  } else if (!(" + G.Fits + ")) {\n";
    Out += I + "    // not the ceiling of its count (a wrapped count): launched as written\n";
    Out += I + "    " + L.Callee + "<<<" + G.GridVar + ", " + G.BlockVar + L.trailingConfig() +
           ">>>(" + L.Arguments + ");\n";
    Out += "#endif\n";
  }
  Out += I + "  } else {\n";
  Out += Run;
  Out += I + "  }\n";
  return Out;
}

} // namespace launchopt
