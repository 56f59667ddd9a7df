#include "OrderGuard.h"

#include "Analysis/LaunchOrder.h"
#include "Analysis/SourceText.h"
#include "Support/GeneratedNames.h"
#include "clang/AST/Stmt.h"

namespace launchopt {

namespace {

std::string partnerLeftReason(const LaunchSite &Partner) {
  return "the launch of '" + Partner.ChildName + "' at line " +
         std::to_string(Partner.Position.Line) +
         ", which may go into the same stream before this one, is left as written, so the "
         "parent thread cannot tell whether a serialized child would overtake it";
}

// A lambda may copy the flag, or not capture it at all: a launch written in
// one can neither read nor set the parent's flag.
std::string closureReason(const LaunchSite &Site, const LaunchSite &Guarded) {
  std::string Which = &Site == &Guarded ? "this launch"
                                        : "the launch of '" + Site.ChildName + "' at line " +
                                              std::to_string(Site.Position.Line) +
                                              ", which may go into the same stream before this "
                                              "one,";
  return Which + " is written in a lambda, where the flag that keeps the stream's order is out "
                 "of reach";
}

// The flag lives in one call of the parent: launches of other calls, or of
// other functions, neither read nor set it.
std::string unseenReason() {
  return "the flag that keeps the stream's order does not reach launches of other calls";
}

// Whether an earlier pass of the same run (thresholding before spawn)
// declared the flag in the parent already.
bool declaresFlag(const clang::FunctionDecl &Parent) {
  const auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(Parent.getBody());
  if (!Body)
    return false;
  for (const clang::Stmt *S : Body->body())
    if (const auto *Declaration = llvm::dyn_cast<clang::DeclStmt>(S))
      for (const clang::Decl *D : Declaration->decls())
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D); V && V->getName() == orderFlag())
          return true;
  return false;
}

} // namespace

OrderGuards planOrderGuards(const clang::ASTContext &Ctx, const LaunchAnalysis &A,
                            const std::set<unsigned> &NeedGuard, std::set<unsigned> Taken) {
  OrderGuards Plan;
  // Refusing a guarded site can leave another without its partner: repeat
  // until nothing changes (each turn only removes sites from Taken).
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned I : NeedGuard) {
      if (!Taken.count(I))
        continue;
      for (unsigned P : orderedStreamPartners(A, A.Sites[I])) {
        std::string Why = !Taken.count(P)                    ? partnerLeftReason(A.Sites[P])
                          : A.Sites[P].InClosure             ? closureReason(A.Sites[P], A.Sites[I])
                          : A.Sites[P].FollowsUnseenLaunches ? unseenReason()
                                                             : "";
        if (Why.empty())
          continue;
        Plan.Refused[I] = Why;
        Taken.erase(I);
        Changed = true;
        break;
      }
    }
  }
  for (unsigned I : NeedGuard) {
    if (!Taken.count(I))
      continue;
    const clang::FunctionDecl *Parent = A.Sites[I].Parent;
    if (!Plan.Declarations.count(Parent) && !declaresFlag(*Parent)) {
      const clang::Stmt *Body = Parent->getBody();
      std::optional<FileRange> Range =
          Body ? spelledRange(Ctx, Body->getSourceRange()) : std::nullopt;
      if (!Range || Range->File.isValid()) {
        Plan.Refused[I] = "the parent's body, which would hold the flag that keeps the "
                          "stream's order, is not written in this file";
        continue;
      }
      Plan.Declarations[Parent] = Range->Begin + 1;
    }
    Plan.Guarded.insert(I);
    for (unsigned P : orderedStreamPartners(A, A.Sites[I]))
      Plan.Setters.insert(P);
  }
  return Plan;
}

std::string orderGuardRefusal(const Independence &Proof, const std::string &Why) {
  return "the parent thread launches other children into the same stream before this one; "
         "not proved independent: " +
         Proof.Text + "; and " + Why;
}

void noteStreamOrder(LaunchRemark &Remark, const Independence &Proof, bool Guarded,
                     bool MayReorder) {
  if (Proof.Proved)
    Remark.Parameters["independence"] = Proof.Text;
  else if (Guarded)
    Remark.Parameters["order-guard"] =
        "serialized only while this thread has launched nothing into the same stream (not "
        "proved independent: " +
        Proof.Text + ")";
  else if (MayReorder)
    Remark.Warnings.push_back("serialized although earlier launches from this thread go into "
                              "the same stream (--assume-independent-children)");
}

std::string orderFlag() { return generated::code("@launchedInOrder"); }

std::string orderFlagDeclaration() {
  return "\n  bool " + orderFlag() +
         " = false; // launchopt: this thread launched into an ordered stream";
}

} // namespace launchopt
