#include "PromotePass.h"

#include "PromoteAcceptance.h"
#include "PromoteCode.h"
#include "Transforms/Common/KernelCopy.h"
#include "Transforms/Common/LaunchText.h"
#include "Transforms/Common/Refusal.h"
#include "clang/AST/Decl.h"

namespace launchopt {

namespace {

// The kernel's declaration, for code written before its definition (the
// body's fallback launch names it).
std::string signatureOf(const clang::FunctionDecl &Kernel, const KernelCopy &K) {
  std::string Storage = Kernel.getStorageClass() == clang::SC_Static ? "static " : "";
  return Storage + "__global__ void " + K.Name + "(" + K.parameters() + ")";
}

} // namespace

PassResult PromotePass::run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const {
  PassResult Result;
  bool Any = false;
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

    PromotedKernel K{*Kernel, *Launch, signatureOf(*Site.Parent, *Kernel)};
    std::vector<SourceEdit> SiteEdit = {
        {Launch->Statement.Begin, Launch->Statement.End - Launch->Statement.Begin,
         promotedSite(K)}};
    Result.Edits.insert(definitionStart(Ctx, *Site.Parent),
                        promotedPrologue(K, Kernel->body(Ctx, SiteEdit)));
    Result.Edits.replace(Kernel->Body.Begin, Kernel->Body.End - Kernel->Body.Begin,
                         promotedFirstBody(K));
    Result.Edits.insert(Kernel->Whole.End, promotedPoolKernel(K));
    Remark.Applied = true;
    Remark.Parameters["mode"] = Options.PoolSize > 1 ? "PA" : "P";
    Remark.Parameters["pool"] = std::to_string(Options.PoolSize);
    Result.Remarks.push_back(Remark);
    Any = true;
  }
  if (Any)
    Result.Edits.insert(0, promotionPreamble(Options.PoolSize));
  return Result;
}

} // namespace launchopt
