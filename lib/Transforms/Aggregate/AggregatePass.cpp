#include "AggregatePass.h"

#include "AggregationCode.h"
#include "AllocationAggregation.h"
#include "PendingLaunchLimit.h"
#include "Analysis/Uniformity.h"
#include "Transforms/Common/LaunchText.h"
#include "Transforms/Common/ShadowCallees.h"
#include "clang/AST/Attr.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <functional>
#include <set>

namespace launchopt {

const char *granularityName(AggregationGranularity G) {
  switch (G) {
  case AggregationGranularity::Warp:
    return "warp";
  case AggregationGranularity::Block:
    return "block";
  case AggregationGranularity::MultiBlock:
    return "multi-block";
  case AggregationGranularity::Grid:
    return "grid";
  }
  return "block";
}

namespace {

const char *const AggregatedPrefix = "__lo_agg_";

// `<T>` when the launch names the child's template arguments, else "".
std::string explicitTemplateArguments(const clang::ASTContext &Ctx, const LaunchSite &Site) {
  std::optional<std::string> Marked = prefixedCallee(Ctx, Site, "");
  if (!Marked)
    return "";
  size_t Angle = Marked->find('<');
  return Angle == std::string::npos ? "" : Marked->substr(Angle);
}

struct AcceptedSite {
  const LaunchSite *Site;
  LaunchText Text;
  AggregatedSite Code;
  size_t RemarkIndex;
};

UniformityScope uniformityScopeOf(AggregationGranularity G) {
  switch (G) {
  case AggregationGranularity::Warp:
    return UniformityScope::Warp;
  case AggregationGranularity::Block:
    return UniformityScope::Block;
  case AggregationGranularity::MultiBlock:
  case AggregationGranularity::Grid:
    return UniformityScope::Grid;
  }
  return UniformityScope::Grid;
}

// Which arguments of the launch every parent thread of one scope computes
// alike.
UniformParameters uniformArgumentsAt(clang::ASTContext &Ctx, const AcceptedSite &A,
                                     AggregationGranularity G) {
  const LaunchSite &Site = *A.Site;
  UniformParameters Uniform(Site.Arguments.size(), false);
  if (A.Text.ArgumentTexts.size() != Site.Arguments.size())
    return Uniform;
  for (size_t I = 0; I < Site.Arguments.size(); ++I)
    Uniform[I] = isUniform(Ctx, *Site.Arguments[I], *Site.Parent, uniformityScopeOf(G));
  return Uniform;
}

// The written arguments whose Uniform entry equals Wanted, comma-separated.
std::string argumentsWhere(const LaunchText &L, const UniformParameters &Uniform, bool Wanted) {
  std::vector<std::string> Picked;
  for (size_t I = 0; I < L.ArgumentTexts.size(); ++I)
    if ((I < Uniform.size() && Uniform[I]) == Wanted)
      Picked.push_back(L.ArgumentTexts[I]);
  return llvm::join(Picked, ", ");
}

std::string siteReplacement(const AcceptedSite &A, const UniformParameters &Uniform) {
  const LaunchText &L = A.Text;
  std::string Id = A.Code.ScopeVar.substr(std::string("__lo_agg").size());
  std::string Grid = "__lo_agrid" + Id, Block = "__lo_ablock" + Id, Record = "__lo_record" + Id;
  std::string UniformCopy = "__lo_uniform" + Id;
  std::string Args = argsStructName(A.Code.ChildName) + A.Code.TemplateArgs;
  std::string UArgs = uniformStructName(A.Code.ChildName) + A.Code.TemplateArgs;
  bool SomeUniform = anyUniform(Uniform);
  std::string In = L.Indent + "  ";
  std::string S = "{ // launchopt: aggregated launch of '" + A.Code.ChildName + "'\n";
  S += In + "const dim3 " + Grid + " = " + L.Grid + ";\n";
  S += In + "const dim3 " + Block + " = " + L.Block + ";\n";
  if (SomeUniform)
    S += In + "void *" + UniformCopy + ";\n";
  S += In + "void *" + Record + " = launchopt::reserveRecord(" + A.Code.ScopeVar + ", " + Grid +
       ", " + Block + ", " + (L.SharedMemory.empty() ? "0" : L.SharedMemory) + ", sizeof(" +
       Args + ")" + (SomeUniform ? ", &" + UniformCopy : "") + ");\n";
  if (SomeUniform) {
    // The uniform copy is written before the scope's epilogue like any
    // record, so the barrier (and, for group scopes, the fence of
    // lastBlockOfScope) that orders the records before the aggregated launch
    // orders it too.
    S += In + "if (" + Record + ") {\n";
    S += In + "  ::new (" + Record + ") " + Args + "(" + argumentsWhere(L, Uniform, false) + ");\n";
    S += In + "  if (" + UniformCopy + ") // first record of the scope: the arguments all share\n";
    S += In + "    ::new (" + UniformCopy + ") " + UArgs + "(" + argumentsWhere(L, Uniform, true) +
         ");\n";
    S += In + "} else // pool or scope full: launch as written\n";
  } else {
    S += In + "if (" + Record + ")\n";
    S += In + "  ::new (" + Record + ") " + Args + "(" + L.Arguments + ");\n";
    S += In + "else // pool or scope full: launch as written\n";
  }
  std::string Direct = A.Code.DirectChild.empty() ? L.Callee : A.Code.DirectChild;
  S += In + "  " + Direct + "<<<" + Grid + ", " + Block + L.trailingConfig() + ">>>(" +
       L.Arguments + ");\n";
  S += L.Indent + "}";
  return S;
}

} // namespace

PassResult AggregatePass::run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const {
  PassResult Result;
  bool GroupScopes = usesGroupScopes(Options.Granularity);
  std::set<std::string> LaunchedFromDevice;
  for (const LaunchSite &S : Launches.Sites)
    if (S.DeviceSide)
      LaunchedFromDevice.insert(S.ChildName);

  // Each site is accepted or refused on its own first; then, at multi-block
  // and grid granularity, a parent that is launched from device code keeps
  // its sites only if every such launch of it is aggregated, since a grid of
  // it launched as written would share the file-scope group scopes (an
  // aggregated grid gets its own). Refusing one launch can refuse more.
  struct Candidate {
    LaunchText Text;
    KernelCopy Child, Parent;
    std::string TemplateArgs;
  };
  std::vector<std::optional<Candidate>> Candidates(Launches.Sites.size());
  std::vector<std::string> Refusal(Launches.Sites.size());
  ShadowCallees Shadows(Ctx);
  for (size_t I = 0; I < Launches.Sites.size(); ++I) {
    const LaunchSite &Site = Launches.Sites[I];
    std::string &Why = Refusal[I];
    if (!Site.DeviceSide) {
      Why = "host-side launch: aggregation applies to launches from device code";
      continue;
    }
    if (!Site.Child) {
      Why = Site.UnresolvedReason;
      continue;
    }
    if (!Site.Parent->hasAttr<clang::CUDAGlobalAttr>()) {
      Why = "the launch is in a device function, not directly in a kernel";
      continue;
    }
    if (llvm::StringRef(Site.ChildName).starts_with(AggregatedPrefix)) {
      Why = "the child is already aggregated";
      continue;
    }
    if (Site.StreamKind == LaunchStream::TailLaunch) {
      Why = "the child is tail-launched: it must run after the whole parent grid";
      continue;
    }
    if (!Options.AssumeIndependentChildren && mayReorderWithEarlierLaunch(Launches, Site)) {
      Why = std::string("the parent thread launches other children into the same stream ") +
            "before this one (in a loop or earlier); aggregating could reorder them (pass " +
            "--assume-independent-children if they do not depend on each other)";
      continue;
    }
    Why = Shadows.require(*Site.Child);
    if (!Why.empty())
      continue;
    LaunchTextOrReason Text = readLaunchText(Ctx, Site);
    if (!Text.Text) {
      Why = Text.Reason;
      continue;
    }
    KernelCopyOrReason Child = readKernel(Ctx, *Site.Child);
    KernelCopyOrReason Parent = readKernel(Ctx, *Site.Parent);
    if (!Child.Copy || !Parent.Copy) {
      Why = Child.Copy ? Parent.Reason : Child.Reason;
      continue;
    }
    // A child defined after its parent gets its argument structs before the
    // parent, written with the parameter types as the child declares them.
    if (Site.Child != Site.Parent && Child.Copy->Whole.End > Parent.Copy->Whole.Begin &&
        !sameNamespace(Site)) {
      Why = "the child is defined after the parent, in another namespace";
      continue;
    }
    std::string TemplateArgs = explicitTemplateArguments(Ctx, Site);
    if (!Child.Copy->TemplateHeader.empty() && TemplateArgs.empty()) {
      Why = "the launch leaves the child's template arguments to deduction";
      continue;
    }
    Candidates[I] = Candidate{*Text.Text, *Child.Copy, *Parent.Copy, TemplateArgs};
  }
  for (bool Changed = GroupScopes; Changed;) {
    Changed = false;
    for (size_t I = 0; I < Launches.Sites.size(); ++I) {
      const LaunchSite &Site = Launches.Sites[I];
      if (!Refusal[I].empty() || !LaunchedFromDevice.count(Site.ParentName))
        continue;
      for (size_t J = 0; J < Launches.Sites.size(); ++J) {
        const LaunchSite &Launch = Launches.Sites[J];
        if (!Launch.DeviceSide || Launch.ChildName != Site.ParentName || Refusal[J].empty())
          continue;
        Refusal[I] = "the parent is also launched from device code at line " +
                     std::to_string(Launch.Position.Line) +
                     ", a launch that is not aggregated: its grids may run at the same time "
                     "and would share one group scope (use warp or block granularity)";
        Changed = true;
        break;
      }
    }
  }

  std::vector<AcceptedSite> Accepted;
  std::map<const clang::FunctionDecl *, KernelCopy> Kernels;
  // Parents whose sites use group scopes and that are launched from device
  // code: launches of them that cannot be recorded go to direct copies.
  std::set<std::string> NeedDirectCopy;
  for (size_t I = 0; I < Launches.Sites.size(); ++I) {
    const LaunchSite &Site = Launches.Sites[I];
    LaunchRemark Remark = remarkFor(Site, "aggregate");
    if (!Refusal[I].empty()) {
      Remark.Message = Refusal[I];
      Result.Remarks.push_back(Remark);
      continue;
    }
    Candidate &C = *Candidates[I];
    if (GroupScopes && LaunchedFromDevice.count(Site.ParentName))
      NeedDirectCopy.insert(Site.ParentName);
    Kernels.emplace(Site.Child, C.Child);
    Kernels.emplace(Site.Parent, C.Parent);
    AcceptedSite A{&Site, C.Text, {}, Result.Remarks.size()};
    A.Code.ScopeVar = "__lo_agg" + std::to_string(Site.Id);
    A.Code.ChildName = Site.ChildName;
    A.Code.TemplateArgs = C.TemplateArgs;
    A.Code.OneThreadPerBlock = Site.OneThreadPerBlock;
    if (GroupScopes)
      A.Code.GroupArray = "__lo_groups_" + Site.ParentName + "_" + std::to_string(Site.Id);
    Accepted.push_back(A);
    Remark.Applied = true;
    Remark.Parameters["granularity"] =
        Options.Granularity == AggregationGranularity::MultiBlock
            ? "multi-block (" + std::to_string(Options.GroupBlocks) + " blocks)"
            : granularityName(Options.Granularity);
    Remark.Parameters["aggregated-kernel"] = AggregatedPrefix + Site.ChildName;
    Result.Remarks.push_back(Remark);
  }
  for (AcceptedSite &A : Accepted)
    A.Code.DirectChild = NeedDirectCopy.count(A.Code.ChildName)
                             ? directKernelName(A.Code.ChildName) + A.Code.TemplateArgs
                             : "";
  if (Accepted.empty())
    return Result;

  // The argument structs and the aggregated kernel exist once per child, so
  // an argument is passed once per scope only where it is uniform at every
  // site of that child.
  std::map<const clang::FunctionDecl *, UniformParameters> UniformOf;
  for (const AcceptedSite &A : Accepted) {
    UniformParameters Here = uniformArgumentsAt(Ctx, A, Options.Granularity);
    auto [It, First] = UniformOf.emplace(A.Site->Child, Here);
    if (!First)
      for (size_t I = 0; I < It->second.size(); ++I)
        It->second[I] = It->second[I] && I < Here.size() && Here[I];
  }
  for (const AcceptedSite &A : Accepted) {
    const UniformParameters &Uniform = UniformOf[A.Site->Child];
    std::vector<std::string> Names;
    const std::vector<std::string> &Params = Kernels.at(A.Site->Child).ParamNames;
    for (size_t I = 0; I < Uniform.size() && I < Params.size(); ++I)
      if (Uniform[I])
        Names.push_back(Params[I]);
    if (!Names.empty())
      Result.Remarks[A.RemarkIndex].Parameters["uniform-arguments"] = llvm::join(Names, ", ");
  }

  // Site rewrites go into the part functions' text, not into the file: the
  // parents' bodies are replaced as a whole.
  SourceEdits SiteEdits;
  std::map<const clang::FunctionDecl *, std::vector<AggregatedSite>> SitesOf;
  std::set<const clang::FunctionDecl *> Children;
  for (const AcceptedSite &A : Accepted) {
    SiteEdits.replace(A.Text.Statement.Begin, A.Text.Statement.End - A.Text.Statement.Begin,
                      siteReplacement(A, UniformOf[A.Site->Child]));
    AggregatedSite Code = A.Code;
    Code.UniformArguments = anyUniform(UniformOf[A.Site->Child]);
    SitesOf[A.Site->Parent].push_back(Code);
    Children.insert(A.Site->Child);
  }
  // Functions the children's part functions call that read the built-ins
  // get their own copies.
  Shadows.emit(Result.Edits, SiteEdits.edits(), Children);

  // The parents' own allocations join the aggregation; edits inside a body
  // the pass replaces reach the output through its part function only.
  std::vector<FileRange> ReplacedBodies, LaunchStatements;
  for (const auto &[Decl, K] : Kernels)
    if (SitesOf.count(Decl))
      ReplacedBodies.push_back(K.Body);
  for (const AcceptedSite &A : Accepted)
    LaunchStatements.push_back(A.Text.Statement);
  AllocationRewrites Allocations =
      aggregateAllocations(Ctx, ReplacedBodies, LaunchStatements, Options.Granularity);
  for (const SourceEdit &E : Allocations.Edits) {
    SiteEdits.replace(E.Offset, E.Length, E.Text);
    FileRange At{E.Offset, E.Offset + E.Length};
    if (std::none_of(ReplacedBodies.begin(), ReplacedBodies.end(),
                     [&](const FileRange &B) { return B.contains(At); }))
      Result.Edits.replace(E.Offset, E.Length, E.Text);
  }
  Result.Remarks.insert(Result.Remarks.end(), Allocations.Remarks.begin(),
                        Allocations.Remarks.end());
  if (!Accepted.empty()) {
    std::vector<LaunchRemark> Notes = pendingLaunchLimitNotes(Ctx);
    Result.Remarks.insert(Result.Remarks.end(), Notes.begin(), Notes.end());
  }

  // Each child's argument structs go before its definition or before the
  // first parent that records its launches, whichever comes first; children
  // in the order of their first accepted launch, so the output is stable.
  std::vector<std::pair<const clang::FunctionDecl *, unsigned>> StructsAt;
  for (const AcceptedSite &A : Accepted) {
    unsigned ParentStart = Kernels.at(A.Site->Parent).Whole.Begin;
    auto It = std::find_if(StructsAt.begin(), StructsAt.end(),
                           [&](const auto &P) { return P.first == A.Site->Child; });
    if (It == StructsAt.end())
      It = StructsAt.insert(StructsAt.end(), {A.Site->Child, Kernels.at(A.Site->Child).Whole.Begin});
    It->second = std::min(It->second, ParentStart);
  }
  for (const auto &[Child, At] : StructsAt)
    Result.Edits.insert(At, argumentStruct(Kernels.at(Child), UniformOf[Child]));

  for (const auto &[Decl, K] : Kernels) {
    const std::vector<AggregatedSite> &Own = SitesOf[Decl];
    std::vector<SourceEdit> BodyEdits = SiteEdits.edits();
    if (Children.count(Decl)) {
      std::vector<SourceEdit> Calls = Shadows.callEdits(*Decl);
      BodyEdits.insert(BodyEdits.end(), Calls.begin(), Calls.end());
    }
    std::string Before, After;
    Before += groupArrays(Own);
    // The part function launches a child's direct copy when it cannot record
    // the launch; the wrapper calls the child's launcher.
    std::set<std::string> Declared;
    for (const AggregatedSite &S : Own)
      for (const auto &[ChildDecl, ChildCopy] : Kernels)
        if (ChildCopy.Name == S.ChildName && Declared.insert(S.ChildName).second) {
          Before += launcherPrototype(ChildCopy);
          if (NeedDirectCopy.count(S.ChildName))
            Before += directKernelPrototype(ChildCopy);
        }
    // A recursive kernel's part function launches the kernel itself when it
    // cannot record the launch: it is defined after the kernel, declared before.
    bool Recursive = std::any_of(Own.begin(), Own.end(), [&](const AggregatedSite &S) {
      return S.ChildName == K.Name;
    });
    if (Recursive) {
      Before += partPrototype(K, Own);
      After += "\n\n" + partFunction(Ctx, K, BodyEdits, Own);
    } else {
      Before += partFunction(Ctx, K, BodyEdits, Own);
    }
    Result.Edits.insert(K.Whole.Begin, Before);
    if (!Own.empty()) {
      // The wrapper passes every parameter on, so each needs a name.
      nameUnnamedParameters(K, Result.Edits);
      Result.Edits.replace(K.Body.Begin, K.Body.End - K.Body.Begin,
                           parentWrapper(K, Own, Options));
    }
    bool Direct = NeedDirectCopy.count(K.Name) > 0;
    if (Direct)
      After += directKernel(K, Own);
    if (Children.count(Decl))
      After += aggregatedKernelAndLauncher(K, Own, Options, UniformOf[Decl],
                                           Direct ? directKernelName(K.Name) : K.Name);
    if (!After.empty())
      Result.Edits.insert(K.Whole.End, After);
  }

  // Top-level parents: the host resets the record pool before each launch,
  // when every earlier grid of the stream and its children have finished.
  std::set<std::string> Reaching;
  for (const auto &[Parent, Sites] : SitesOf)
    Reaching.insert(Parent->getNameAsString());
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const LaunchSite &S : Launches.Sites)
      if (S.DeviceSide && Reaching.count(S.ChildName) && Reaching.insert(S.ParentName).second)
        Grew = true;
  }
  for (const LaunchSite &S : Launches.Sites) {
    if (S.DeviceSide || !Reaching.count(S.ChildName))
      continue;
    LaunchTextOrReason Text = readLaunchText(Ctx, S);
    if (!Text.Text)
      continue;
    const LaunchText &L = *Text.Text;
    Result.Edits.replace(L.Statement.Begin, L.Statement.End - L.Statement.Begin,
                         "{ launchopt::resetPool(" + (L.Stream.empty() ? "0" : L.Stream) + "); " +
                             textOf(Ctx, L.Statement) + " }");
  }

  Result.Edits.insert(0, "// launchopt: launches from device code are aggregated; scopes with fewer\n"
                         "// than LAUNCHOPT_AGG_THRESHOLD launches launch them one by one.\n"
                         "#include <launchopt/aggregation.cuh>\n" +
                             std::string(Allocations.Edits.empty()
                                             ? ""
                                             : "#include <launchopt/allocation.cuh>\n") +
                             "#ifndef LAUNCHOPT_AGG_THRESHOLD\n#define LAUNCHOPT_AGG_THRESHOLD " +
                             std::to_string(Options.DefaultThreshold) +
                             "\n#endif\n#ifndef LAUNCHOPT_MAX_GROUPS\n"
                             "#define LAUNCHOPT_MAX_GROUPS 65536\n#endif\n\n");
  return Result;
}

} // namespace launchopt
