#include "PromotePass.h"

#include "PromoteAcceptance.h"
#include "PromoteCode.h"
#include "PromoteOverlap.h"
#include "Analysis/KernelFeatures.h"
#include "Transforms/Common/KernelCopy.h"
#include "Transforms/Common/LaunchText.h"
#include "Transforms/Common/Refusal.h"
#include "clang/AST/Decl.h"
#include <set>

namespace launchopt {

namespace {

// The kernel's declaration, for code written before its definition (the
// body's fallback launch names it).
std::string signatureOf(const clang::FunctionDecl &Kernel, const KernelCopy &K) {
  std::string Storage = Kernel.getStorageClass() == clang::SC_Static ? "static " : "";
  return K.TemplateHeader + Storage + "__global__ void " + K.Name + "(" + K.parameters() + ")";
}

} // namespace

llvm::Error PromotePass::acceptChildOfOtherFiles(clang::ASTContext &, const LaunchAnalysis &,
                                                 const clang::FunctionDecl &) const {
  return refusal("the kernel launches another kernel: promotion takes a kernel's launch of "
                 "itself (a chain of single-block steps)");
}

PassResult PromotePass::run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const {
  PassResult Result;
  // The kernels' edits, kept apart so that the preamble goes first even
  // where a promoted kernel starts the file.
  SourceEdits Promoted;
  bool Any = false;
  // The generated struct and functions are named after the kernel.
  std::set<std::string> PromotedNames;
  for (const LaunchSite &Site : Launches.Sites) {
    LaunchRemark Remark = remarkFor(Site, "promote");
    auto Refuse = [&](llvm::Error E) {
      Remark.Message = llvm::toString(std::move(E));
      Result.Remarks.push_back(Remark);
    };
    if (llvm::Error E = promotionRefusal(Ctx, Launches, Site)) {
      Refuse(std::move(E));
      continue;
    }
    llvm::Expected<LaunchText> Launch = readLaunchText(Ctx, Site);
    if (!Launch) {
      Refuse(Launch.takeError());
      continue;
    }
    llvm::Expected<KernelCopy> Kernel = readKernel(Ctx, *Site.Parent);
    if (!Kernel) {
      Refuse(Kernel.takeError());
      continue;
    }
    if (PromotedNames.count(Kernel->Name)) {
      Refuse(refusal("another kernel named '" + Kernel->Name +
                     "' is promoted in this file (an overload): the generated names would clash"));
      continue;
    }
    if (Launch->ArgumentTexts.size() != Kernel->ParamNames.size()) {
      Refuse(refusal("the launch relies on the kernel's default arguments"));
      continue;
    }
    for (const clang::ParmVarDecl *P : Site.Parent->parameters())
      if (P->hasDefaultArg()) {
        Refuse(refusal("the kernel's parameter '" + P->getName() + "' has a default argument"));
        break;
      }
    if (!Remark.Message.empty())
      continue;
    // A pool block is not block 0 of a one-block grid; the body's own reads
    // of blockIdx and gridDim are redirected, a callee's could not be.
    KernelFeatures Features = computeKernelFeatures(*Site.Parent);
    if (Options.PoolSize > 1 && !Features.CalleesReadingThreadIdentity.empty()) {
      Refuse(refusal("'" + *Features.CalleesReadingThreadIdentity.begin() +
                     "', called by the kernel, reads the built-in index variables: in a pool of "
                     "successors blockIdx and gridDim differ from the one-block launch"));
      continue;
    }

    PromotedKernel K{*Kernel, *Launch, signatureOf(*Site.Parent, *Kernel)};
    std::optional<OverlapPlan> Plan;
    if (Options.Overlap) {
      llvm::Expected<OverlapPlan> Found = planOverlap(Ctx, Site);
      if (Found) {
        Plan = *Found;
        K.Overlap = &*Plan;
      } else {
        Remark.Parameters["overlap"] = "none: " + llvm::toString(Found.takeError());
      }
    }
    std::vector<SourceEdit> SiteEdit = {{Launch->Statement.Begin,
                                         Launch->Statement.End - Launch->Statement.Begin,
                                         promotedSite(K)}};
    if (Plan) {
      SiteEdit.push_back({Plan->NextStatement, 0, promotedAcquire(K)});
      std::string Postponed;
      for (size_t I = 0; I < Plan->Available.size(); ++I)
        if (!Plan->Available[I])
          Postponed += (Postponed.empty() ? "" : ", ") + Kernel->ParamNames[I];
      Remark.Parameters["overlap"] =
          std::to_string(Plan->Statements) + " statement(s) before the acquire; " + Plan->Stop;
      Remark.Parameters["postponed"] = Postponed.empty() ? "none" : Postponed;
      Remark.Parameters["early-condition"] = Plan->EarlyCondition;
    }
    Promoted.insert(definitionStart(Ctx, *Site.Parent),
                    promotedPrologue(K, Kernel->body(Ctx, SiteEdit)));
    Promoted.replace(Kernel->Body.Begin, Kernel->Body.End - Kernel->Body.Begin,
                     promotedFirstBody(K));
    Promoted.insert(Kernel->Whole.End, promotedPoolKernel(K));
    PromotedNames.insert(Kernel->Name);
    Remark.Applied = true;
    Remark.Parameters["mode"] =
        std::string(Options.PoolSize > 1 ? "PA" : "P") + (Options.Overlap ? "O" : "");
    Remark.Parameters["pool"] = std::to_string(Options.PoolSize);
    Result.Remarks.push_back(Remark);
    Any = true;
  }
  if (Any)
    Result.Edits.insert(0, promotionPreamble(Options.PoolSize));
  for (const SourceEdit &E : Promoted.edits())
    Result.Edits.replace(E.Offset, E.Length, E.Text);
  return Result;
}

} // namespace launchopt
