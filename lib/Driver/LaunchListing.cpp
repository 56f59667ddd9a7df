#include "LaunchListing.h"

#include "Analysis/ThreadCount.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace launchopt {

namespace {

std::string exprText(const clang::ASTContext &Ctx, const clang::Expr *E) {
  if (!E)
    return "";
  std::optional<FileRange> R = spelledRange(Ctx, E->getSourceRange());
  return R ? textOf(Ctx, *R) : "<macro>";
}

std::string builtinUses(const KernelFeatures &F) {
  std::string S;
  for (const auto &[Name, Mask] : F.BuiltinDimensions) {
    if (!S.empty())
      S += ", ";
    S += Name + "." + dimensionString(Mask);
  }
  return S.empty() ? "none" : S;
}

std::string joined(const std::set<std::string> &Items) {
  return Items.empty() ? "none" : llvm::join(Items, ", ");
}

std::string threadCountText(clang::ASTContext &Ctx, const LaunchSite &S) {
  ThreadCount Count = recoverThreadCount(Ctx, S);
  std::string Out;
  const char *Names[3] = {"x", "y", "z"};
  for (unsigned D = 0; D < 3; ++D) {
    const DimensionThreads &Dim = Count.Dimensions[D];
    if (!Dim.Numerator)
      continue;
    if (!Out.empty())
      Out += "; ";
    Out += std::string(Names[D]) + ": " + exprText(Ctx, Dim.Numerator) + " (" + Dim.Pattern +
           (Dim.InLaunchExpression ? "" : ", via variables") + ")";
  }
  return Out.empty() ? "grid x block" : Out;
}

llvm::json::Object featuresJson(const KernelFeatures &F) {
  llvm::json::Object Builtins;
  for (const auto &[Name, Mask] : F.BuiltinDimensions)
    Builtins[Name] = dimensionString(Mask);
  auto Array = [](const std::set<std::string> &Items) {
    llvm::json::Array A;
    for (const std::string &I : Items)
      A.push_back(I);
    return A;
  };
  return llvm::json::Object{{"barriers", Array(F.Barriers)},
                            {"sharedMemory", F.UsesSharedMemory},
                            {"warpPrimitives", Array(F.WarpPrimitives)},
                            {"inlineAsm", F.UsesInlineAsm},
                            {"launches", Array(F.LaunchedKernels)},
                            {"builtins", std::move(Builtins)},
                            {"calleesReadingThreadIdentity", Array(F.CalleesReadingThreadIdentity)},
                            {"opaqueCallees", Array(F.OpaqueCallees)}};
}

} // namespace

void printLaunchesText(llvm::raw_ostream &OS, clang::ASTContext &Ctx, const LaunchAnalysis &A) {
  if (A.Sites.empty() && A.Unresolved.empty() && A.InIncludedFiles.empty())
    OS << "no kernel launches found\n";
  for (const UnresolvedLaunch &U : A.Unresolved)
    OS << "unresolved launch at " << U.Position.File << ":" << U.Position.Line << ":"
       << U.Position.Column << ": " << U.Text << "\n  " << U.Cause << "\n";
  for (const IncludedFileLaunch &L : A.InIncludedFiles)
    OS << "launch at " << L.Position.File << ":" << L.Position.Line << ":" << L.Position.Column
       << ", in an included file (not edited): " << (L.DeviceSide ? "device-side" : "host-side")
       << ", '" << L.Parent << "' launches '" << L.Child << "'\n";
  for (const LaunchSite &S : A.Sites) {
    OS << "launch #" << S.Id << " at " << S.Position.File << ":" << S.Position.Line << ":"
       << S.Position.Column << ": " << (S.DeviceSide ? "device-side" : "host-side") << ", '"
       << S.ParentName << "' launches '" << S.ChildName << "'\n";
    OS << "  grid: " << exprText(Ctx, S.Grid) << "\n";
    OS << "  block: " << exprText(Ctx, S.Block) << "\n";
    OS << "  shared memory: " << (S.SharedMemory ? exprText(Ctx, S.SharedMemory) : "-") << "\n";
    OS << "  stream: " << (S.Stream ? exprText(Ctx, S.Stream) : "-") << " ("
       << streamName(S.StreamKind) << ")\n";
    OS << "  child threads: " << threadCountText(Ctx, S) << "\n";
    OS << "  context: "
       << (S.InClosure ? "in lambda"
           : S.InLoop  ? "in loop"
                       : "not in loop")
       << ", " << (S.InBranch ? "in branch" : "not in branch") << (S.Recursive ? ", recursive" : "")
       << "\n";
    if (!S.UnseenOrder.empty())
      OS << "  order with other calls: " << S.UnseenOrder << "\n";
    if (!S.Child) {
      OS << "  child: unresolved: " << S.UnresolvedReason << "\n";
      continue;
    }
    const KernelFeatures &F = A.ChildFeatures.at(S.Child);
    OS << "  child uses: index variables " << builtinUses(F) << "; barriers " << joined(F.Barriers)
       << "; shared memory " << (F.UsesSharedMemory ? "yes" : "no") << "; warp primitives "
       << joined(F.WarpPrimitives) << "; launches " << joined(F.LaunchedKernels) << "\n";
    if (!F.CalleesReadingThreadIdentity.empty() || !F.OpaqueCallees.empty() || F.UsesInlineAsm)
      OS << "  child also: callees reading index variables "
         << joined(F.CalleesReadingThreadIdentity) << "; callees without definition "
         << joined(F.OpaqueCallees) << "; inline asm " << (F.UsesInlineAsm ? "yes" : "no") << "\n";
  }
}

void printLaunchesJson(llvm::raw_ostream &OS, clang::ASTContext &Ctx, const LaunchAnalysis &A) {
  llvm::json::Array Launches;
  for (const LaunchSite &S : A.Sites) {
    llvm::json::Object L{{"id", S.Id},
                         {"file", S.Position.File},
                         {"line", S.Position.Line},
                         {"column", S.Position.Column},
                         {"side", S.DeviceSide ? "device" : "host"},
                         {"parent", S.ParentName},
                         {"child", S.ChildName},
                         {"grid", exprText(Ctx, S.Grid)},
                         {"block", exprText(Ctx, S.Block)},
                         {"sharedMemory", exprText(Ctx, S.SharedMemory)},
                         {"stream", exprText(Ctx, S.Stream)},
                         {"streamKind", streamName(S.StreamKind)},
                         {"childThreads", threadCountText(Ctx, S)},
                         {"inLoop", S.InLoop},
                         {"inBranch", S.InBranch},
                         {"inLambda", S.InClosure},
                         {"recursive", S.Recursive}};
    if (!S.UnseenOrder.empty())
      L["orderWithOtherCalls"] =
          llvm::json::Object{{"followsTheirLaunches", S.FollowsUnseenLaunches},
                             {"followedByTheirLaunches", S.FollowedByUnseenLaunches},
                             {"why", S.UnseenOrder}};
    if (S.Child)
      L["childUses"] = featuresJson(A.ChildFeatures.at(S.Child));
    else
      L["unresolved"] = S.UnresolvedReason;
    Launches.push_back(std::move(L));
  }
  llvm::json::Array Unresolved;
  for (const UnresolvedLaunch &U : A.Unresolved)
    Unresolved.push_back(llvm::json::Object{{"file", U.Position.File},
                                            {"line", U.Position.Line},
                                            {"column", U.Position.Column},
                                            {"text", U.Text},
                                            {"reason", U.Cause}});
  llvm::json::Array Included;
  for (const IncludedFileLaunch &L : A.InIncludedFiles)
    Included.push_back(llvm::json::Object{{"file", L.Position.File},
                                          {"line", L.Position.Line},
                                          {"column", L.Position.Column},
                                          {"parent", L.Parent},
                                          {"child", L.Child},
                                          {"deviceSide", L.DeviceSide}});
  OS << llvm::formatv("{0:2}", llvm::json::Value(
                                   llvm::json::Object{{"launches", std::move(Launches)},
                                                      {"unresolved", std::move(Unresolved)},
                                                      {"inIncludedFiles", std::move(Included)}}))
     << "\n";
}

} // namespace launchopt
