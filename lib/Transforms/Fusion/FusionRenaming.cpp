#include "FusionRenaming.h"

#include "Support/GeneratedNames.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include <set>

namespace launchopt {

using namespace clang;

namespace {

// A stream operand that may be written again before and after the sequence
// without evaluating anything twice.
bool isPlainOperand(const Expr *E) {
  E = writtenOperand(E)->IgnoreParenCasts();
  return isa<DeclRefExpr, IntegerLiteral, CXXNullPtrLiteralExpr, GNUNullExpr>(E);
}

int versionOf(const FusionProblem &P, const FusionGraphs &G, unsigned K, unsigned Array) {
  for (unsigned U = 0; U < P.Kernels[K].Uses.size(); ++U)
    if (P.Kernels[K].Uses[U].Array == Array)
      return G.UseVersions[K][U];
  return -1;
}

std::string where(const LaunchSite &S) {
  return "'" + S.ChildName + "' at line " + std::to_string(S.Position.Line);
}

} // namespace

std::string renamedBufferName(const std::string &Name, unsigned Version) {
  return generated::Prefix + Name + "_v" + std::to_string(Version);
}

std::vector<std::string> renamingRefusals(const ASTContext &Ctx, const FusionExtraction &X,
                                          const FusionGraphs &G) {
  const FusionProblem &P = X.Problem;
  std::vector<std::string> Why(P.Arrays.size());
  // Only arrays that would get several versions (expandable ones, and
  // write-only ones with several writers) need a reason.
  auto Refuse = [&](unsigned A, std::string Reason) {
    if (G.VersionCount[A] > 1 && Why[A].empty())
      Why[A] = std::move(Reason);
  };
  for (unsigned A = 0; A < P.Arrays.size(); ++A)
    if (!X.Allocations[A]->getType()->isPointerType())
      Refuse(A, "'" + P.Arrays[A].Name +
                    "' is not a pointer variable: the extent of its allocation is unknown");
  for (const ExtractedLaunch &L : X.Launches) {
    const LaunchSite &S = *L.Site;
    std::set<int> Seen;
    for (unsigned I = 0; I < L.ArgumentAllocation.size(); ++I) {
      int A = L.ArgumentAllocation[I];
      if (A < 0)
        continue;
      // One kernel would read one version and write the next in place.
      if (!Seen.insert(A).second)
        Refuse(A, "aliased by another argument of " + where(S));
      if (!spelledRange(Ctx, S.Arguments[I]->getSourceRange()))
        Refuse(A, "an argument of " + where(S) + " comes from a macro");
      if (!L.Wrapper.empty())
        Refuse(A, where(S) + " is inlined from the host wrapper '" + L.Wrapper + "'");
      if (S.Stream && (!isPlainOperand(S.Stream) ||
                       !spelledRange(Ctx, writtenOperand(S.Stream)->getSourceRange())))
        Refuse(A, "the stream of " + where(S) +
                      " is an expression that the copies would evaluate again");
    }
  }
  return Why;
}

RenamingPlan planRenaming(const ASTContext &Ctx, const FusionExtraction &X,
                          const FusionGraphs &Relaxed, const FusionPlan &Plan,
                          const std::vector<std::string> &Refusals) {
  const FusionProblem &P = X.Problem;
  unsigned N = P.Kernels.size();
  RenamingPlan R;
  R.ArgumentBuffer.resize(N);
  auto FirstUse = [&](unsigned A, unsigned Segment) -> std::pair<unsigned, unsigned> {
    for (unsigned K = 0; K < N; ++K)
      if (P.Kernels[K].Segment == Segment)
        for (unsigned I = 0; I < X.Launches[K].ArgumentAllocation.size(); ++I)
          if (X.Launches[K].ArgumentAllocation[I] == int(A))
            return {K, I};
    return {N, 0};
  };

  for (unsigned A = 0; A < P.Arrays.size(); ++A) {
    if (Refusals[A].empty())
      continue;
    R.ReportLines.push_back("array " + P.Arrays[A].Name + " not renamed: " + Refusals[A]);
    for (unsigned K = 0; K < N; ++K)
      if (P.Kernels[K].use(A)) {
        LaunchRemark Remark = remarkFor(*X.Launches[K].Site, "rename");
        Remark.Message = "array '" + P.Arrays[A].Name + "': " + Refusals[A];
        R.Remarks.push_back(std::move(Remark));
        break;
      }
  }

  // Where the generated code runs each original kernel: segments in order,
  // new kernels in plan order within them, members in order within those.
  std::vector<std::tuple<unsigned, unsigned, unsigned>> At(N);
  for (unsigned F = 0; F < Plan.NewKernels.size(); ++F) {
    const std::vector<unsigned> &M = Plan.NewKernels[F].Members;
    for (unsigned I = 0; I < M.size(); ++I)
      At[M[I]] = {P.Kernels[M.front()].Segment, F, I};
  }
  auto Halo = [&](unsigned K) {
    const NewKernelProjection &F = Plan.NewKernels[std::get<1>(At[K])];
    return F.MemberHalo.empty() ? 0u : F.MemberHalo[std::get<2>(At[K])];
  };
  // A precedence between versions that the relaxed search dropped holds in
  // one buffer only when the plan still runs the earlier access first and,
  // inside one new kernel, in the same thread.
  std::map<unsigned, std::set<unsigned>> Renamed; // segment -> arrays
  FusionGraphs Strict = buildFusionGraphs(P, false);
  for (const KernelDependence &D : Strict.Dependences) {
    if (versionOf(P, Relaxed, D.From, D.Array) == versionOf(P, Relaxed, D.To, D.Array))
      continue;
    bool SameKernel = std::get<0>(At[D.From]) == std::get<0>(At[D.To]) &&
                      std::get<1>(At[D.From]) == std::get<1>(At[D.To]);
    bool Holds =
        SameKernel ? At[D.From] < At[D.To] && D.Radius == 0 && Halo(D.From) == 0 && Halo(D.To) == 0
                   : At[D.From] < At[D.To];
    if (!Holds)
      Renamed[P.Kernels[D.From].Segment].insert(D.Array);
  }

  for (const auto &[Segment, Arrays] : Renamed) {
    SegmentRenaming &S = R.Segments[Segment];
    for (unsigned A : Arrays) {
      auto [First, Argument] = FirstUse(A, Segment);
      const LaunchSite &Site = *X.Launches[First].Site;
      if (S.Arrays.empty())
        S.Stream =
            Site.Stream
                ? textOf(Ctx, *spelledRange(Ctx, writtenOperand(Site.Stream)->getSourceRange()))
                : "0";
      SegmentRenaming::Array Entry;
      Entry.Allocation = A;
      Entry.User = textOf(Ctx, *spelledRange(Ctx, Site.Arguments[Argument]->getSourceRange()));
      Entry.FirstVersion = ~0u;
      for (unsigned K = 0; K < N; ++K)
        if (P.Kernels[K].Segment == Segment && P.Kernels[K].use(A)) {
          unsigned V = versionOf(P, Relaxed, K, A);
          Entry.FirstVersion = std::min(Entry.FirstVersion, V);
          Entry.LastVersion = std::max(Entry.LastVersion, V);
        }
      LaunchRemark *Remark = nullptr;
      for (unsigned K = 0; K < N; ++K) {
        if (P.Kernels[K].Segment != Segment || !P.Kernels[K].use(A))
          continue;
        unsigned V = versionOf(P, Relaxed, K, A);
        for (unsigned I = 0; I < X.Launches[K].ArgumentAllocation.size(); ++I)
          if (X.Launches[K].ArgumentAllocation[I] == int(A) && V < Entry.LastVersion)
            R.ArgumentBuffer[K][I] = renamedBufferName(P.Arrays[A].Name, V);
        // The remark goes to the launch that starts the last version: it
        // may now run before earlier versions are done with.
        if (!Remark && V == Entry.LastVersion) {
          R.Remarks.push_back(remarkFor(*X.Launches[K].Site, "rename"));
          Remark = &R.Remarks.back();
        }
      }
      std::string Versions =
          std::to_string(Entry.FirstVersion) + (Entry.LastVersion > Entry.FirstVersion + 1
                                                    ? "-" + std::to_string(Entry.LastVersion - 1)
                                                    : "");
      if (Remark) {
        Remark->Applied = true;
        Remark->Parameters["array"] = P.Arrays[A].Name;
        Remark->Parameters["versions in new buffers"] = Versions;
        Remark->Parameters["version in the user's allocation"] = std::to_string(Entry.LastVersion);
      }
      R.ReportLines.push_back(
          "array " + P.Arrays[A].Name + " renamed in segment " + std::to_string(Segment) + ": " +
          (Entry.LastVersion > Entry.FirstVersion + 1
               ? "versions " + Versions + " in new buffers"
               : "version " + Versions + " in a new buffer") +
          " copied from its allocation, version " + std::to_string(Entry.LastVersion) +
          " (the last) in the allocation itself");
      S.Arrays.push_back(std::move(Entry));
    }
  }
  for (unsigned A = 0; A < P.Arrays.size(); ++A) {
    bool Any = false;
    for (const auto &[Segment, Arrays] : Renamed)
      Any |= Arrays.count(A) > 0;
    if (!Any && Refusals[A].empty() && Relaxed.VersionCount[A] > 1)
      R.ReportLines.push_back("array " + P.Arrays[A].Name +
                              " not renamed: the plan keeps the order of its versions");
  }
  return R;
}

} // namespace launchopt
