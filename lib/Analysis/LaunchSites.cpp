#include "LaunchSites.h"

#include "ConstantOperand.h"
#include "IndexGuards.h"
#include "KernelFeatures.h"
#include "UnseenLaunchOrder.h"
#include "Support/GeneratedNames.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include <algorithm>
#include <cstring>
#include <functional>
#include <set>

namespace launchopt {

const char *streamName(LaunchStream S) {
  switch (S) {
  case LaunchStream::Default:
    return "default";
  case LaunchStream::FireAndForget:
    return "fire-and-forget";
  case LaunchStream::TailLaunch:
    return "tail-launch";
  case LaunchStream::Named:
    return "named";
  }
  return "default";
}

const clang::Expr *writtenOperand(const clang::Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreImplicit();
  if (llvm::isa<clang::CXXDefaultArgExpr>(E))
    return nullptr;
  // `<<<n, 256>>>`: Sema wraps n in an implicit dim3 construction.
  if (auto *Construct = llvm::dyn_cast<clang::CXXConstructExpr>(E)) {
    if (!llvm::isa<clang::CXXTemporaryObjectExpr>(Construct) &&
        Construct->getParenOrBraceRange().isInvalid() && Construct->getNumArgs() > 0 &&
        !llvm::isa<clang::CXXDefaultArgExpr>(Construct->getArg(0)))
      return Construct->getArg(0)->IgnoreImplicit();
  }
  return E;
}

const clang::Expr *launchedKernel(const clang::CUDAKernelCallExpr &Call) {
  const clang::Expr *E = Call.getCallee()->IgnoreImplicit();
  const auto *Paren = llvm::dyn_cast<clang::ParenExpr>(E);
  const auto *Deref =
      Paren ? llvm::dyn_cast<clang::UnaryOperator>(Paren->getSubExpr()->IgnoreImplicit()) : nullptr;
  if (!Deref || Deref->getOpcode() != clang::UO_Deref)
    return E;
  const auto *AddressOf =
      llvm::dyn_cast<clang::UnaryOperator>(Deref->getSubExpr()->IgnoreImplicit());
  if (!AddressOf || AddressOf->getOpcode() != clang::UO_AddrOf ||
      !llvm::isa<clang::DeclRefExpr>(AddressOf->getSubExpr()->IgnoreImplicit()))
    return E;
  return AddressOf->getSubExpr()->IgnoreImplicit();
}

const clang::FunctionDecl *launchedFunction(const clang::CUDAKernelCallExpr &Call) {
  if (const clang::FunctionDecl *Callee = Call.getDirectCallee())
    return Callee;
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(launchedKernel(Call));
  const auto *Var = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->isConstexpr() || !Var->getType()->isReferenceType() || !Var->getInit())
    return nullptr;
  const auto *Named = llvm::dyn_cast<clang::DeclRefExpr>(Var->getInit()->IgnoreParenImpCasts());
  const auto *Kernel = Named ? llvm::dyn_cast<clang::FunctionDecl>(Named->getDecl()) : nullptr;
  return Kernel && Kernel->hasAttr<clang::CUDAGlobalAttr>() ? Kernel : nullptr;
}

bool isRecoveredLaunchReference(const clang::VarDecl &Var) {
  return Var.getName().starts_with(RecoveredReferencePrefix) && Var.isConstexpr() &&
         Var.getType()->isReferenceType();
}

namespace {

// Macros like cudaStreamTailLaunch expand to casts of small constants; read
// the spelling the user wrote.
LaunchStream classifyStream(const clang::ASTContext &Ctx, const clang::Expr *Stream) {
  if (!Stream)
    return LaunchStream::Default;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation Loc = Stream->getBeginLoc();
  if (Loc.isMacroID()) {
    llvm::StringRef Macro = clang::Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts());
    if (Macro == "cudaStreamTailLaunch")
      return LaunchStream::TailLaunch;
    if (Macro == "cudaStreamFireAndForget")
      return LaunchStream::FireAndForget;
  }
  const clang::Expr *E = Stream->IgnoreParenImpCasts();
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    llvm::StringRef Name = Ref->getDecl()->getName();
    if (Name == "cudaStreamTailLaunch")
      return LaunchStream::TailLaunch;
    if (Name == "cudaStreamFireAndForget")
      return LaunchStream::FireAndForget;
  }
  if (E->isNullPointerConstant(const_cast<clang::ASTContext &>(Ctx),
                               clang::Expr::NPC_ValueDependentIsNotNull))
    return LaunchStream::Default;
  return LaunchStream::Named;
}

// Every use of a local stream variable in its function: the stream operand of
// a launch, `&s` passed to cudaStreamCreate[WithFlags] (exactly once), `s`
// passed to cudaStreamDestroy. Anything else (an assignment, a copy, its
// address kept) could make it another stream's alias.
class StreamUses : public clang::RecursiveASTVisitor<StreamUses> {
public:
  explicit StreamUses(const clang::VarDecl &Stream) : Stream(Stream) {}

  bool VisitCallExpr(clang::CallExpr *Call) {
    const clang::FunctionDecl *Callee = Call->getDirectCallee();
    if (auto *Launch = llvm::dyn_cast<clang::CUDAKernelCallExpr>(Call)) {
      const clang::CallExpr *Config = Launch->getConfig();
      if (Config && Config->getNumArgs() > 3)
        Allowed.insert(Config->getArg(3)->IgnoreParenImpCasts());
      return true;
    }
    if (!Callee || Call->getNumArgs() == 0)
      return true;
    llvm::StringRef Name = Callee->getName();
    const clang::Expr *First = Call->getArg(0)->IgnoreParenImpCasts();
    if (Name == "cudaStreamCreateWithFlags" || Name == "cudaStreamCreate") {
      auto *AddressOf = llvm::dyn_cast<clang::UnaryOperator>(First);
      if (AddressOf && AddressOf->getOpcode() == clang::UO_AddrOf &&
          refersToStream(AddressOf->getSubExpr())) {
        ++Creations;
        Allowed.insert(AddressOf->getSubExpr()->IgnoreParenImpCasts());
      }
    } else if (Name == "cudaStreamDestroy") {
      Allowed.insert(First);
    }
    return true;
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    if (E->getDecl() == &Stream)
      References.push_back(E);
    return true;
  }

  // Whether the variable is a stream of its own: created once, used only so.
  bool created() const {
    return Creations == 1 && std::all_of(References.begin(), References.end(),
                                         [&](const clang::Expr *E) { return Allowed.count(E); });
  }

private:
  bool refersToStream(const clang::Expr *E) const {
    auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == &Stream;
  }

  const clang::VarDecl &Stream;
  unsigned Creations = 0;
  std::set<const clang::Expr *> Allowed;
  std::vector<const clang::Expr *> References;
};

// The local the launch's stream operand names when the parent created that
// stream itself (LaunchSite::CreatedStream), else null.
const clang::VarDecl *createdStream(const clang::FunctionDecl *Parent, const clang::Expr *Stream) {
  if (!Parent || !Parent->getBody() || !Stream)
    return nullptr;
  auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Stream->IgnoreParenImpCasts());
  auto *Var = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(Var) ||
      Var->getType()->isReferenceType())
    return nullptr;
  StreamUses Uses(*Var);
  Uses.TraverseStmt(Parent->getBody());
  return Uses.created() ? Var : nullptr;
}

const clang::FunctionDecl *definitionOf(const clang::FunctionDecl *F) {
  if (!F)
    return nullptr;
  if (const clang::FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
    F = Pattern;
  const clang::FunctionDecl *Def = nullptr;
  if (F->hasBody(Def) && Def)
    return Def;
  return nullptr;
}

// The kernel a launch calls: resolved directly, or the single template a
// dependent launch names.
const clang::FunctionDecl *calleeOf(const clang::CUDAKernelCallExpr *Call, std::string &Name) {
  if (const clang::FunctionDecl *Callee = launchedFunction(*Call)) {
    Name = Callee->getNameAsString();
    return Callee;
  }
  const clang::Expr *Callee = launchedKernel(*Call);
  if (auto *ULE = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Callee)) {
    Name = ULE->getName().getAsString();
    const clang::FunctionDecl *Found = nullptr;
    for (const clang::NamedDecl *D : ULE->decls()) {
      const clang::FunctionDecl *F = D->getAsFunction();
      if (!F)
        continue;
      if (Found && Found->getCanonicalDecl() != F->getCanonicalDecl())
        return nullptr; // overloaded: cannot tell which without instantiation
      Found = F;
    }
    return Found;
  }
  return nullptr;
}

// The callee of an unbuilt launch when it names several non-template
// kernels (no template among them: then the template cause holds).
const clang::OverloadExpr *launchedOverloads(const clang::RecoveryExpr *E) {
  for (const clang::Expr *Sub : E->subExpressions()) {
    auto *Callee = llvm::dyn_cast_or_null<clang::OverloadExpr>(Sub->IgnoreImplicit());
    if (!Callee || Callee->getNumDecls() < 2)
      continue;
    bool Kernels =
        std::all_of(Callee->decls_begin(), Callee->decls_end(), [](const clang::NamedDecl *D) {
          auto *F = llvm::dyn_cast<clang::FunctionDecl>(D->getUnderlyingDecl());
          return F && F->hasAttr<clang::CUDAGlobalAttr>();
        });
    return Kernels ? Callee : nullptr;
  }
  return nullptr;
}

class LaunchCollector : public clang::RecursiveASTVisitor<LaunchCollector> {
public:
  LaunchCollector(clang::ASTContext &Ctx, bool IncludedFiles)
      : Ctx(Ctx), IncludedFiles(IncludedFiles) {}

  bool TraverseFunctionDecl(clang::FunctionDecl *F) {
    const clang::FunctionDecl *Saved = CurrentFunction;
    CurrentFunction = F;
    bool Result = RecursiveASTVisitor::TraverseFunctionDecl(F);
    CurrentFunction = Saved;
    return Result;
  }

  bool TraverseCXXMethodDecl(clang::CXXMethodDecl *F) {
    const clang::FunctionDecl *Saved = CurrentFunction;
    CurrentFunction = F;
    bool Result = RecursiveASTVisitor::TraverseCXXMethodDecl(F);
    CurrentFunction = Saved;
    return Result;
  }

  bool TraverseLambdaExpr(clang::LambdaExpr *E) {
    Closures.push_back(E);
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(E);
    Closures.pop_back();
    return Result;
  }

  bool VisitRecoveryExpr(clang::RecoveryExpr *E) {
    std::optional<FileRange> R = spelledRange(Ctx, E->getSourceRange());
    if (!R || !CurrentFunction)
      return true;
    std::string Text = textOf(Ctx, *R);
    if (Text.find("<<<") == std::string::npos || !SeenUnresolved.insert(R->Begin).second)
      return true;
    UnresolvedLaunch U{
        positionOf(Ctx, E->getBeginLoc()), Text,
        "Clang 19 cannot resolve this device-side launch of a template kernel "
        "from a non-template kernel",
        "launchopt recovers such a launch when it writes every template argument, as in "
        "k<float><<<...>>>, or when its arguments' types show every one (no default left "
        "to apply), outside a macro; a template parent, or a non-template child, can be "
        "transformed"};
    if (const clang::OverloadExpr *Callee = launchedOverloads(E)) {
      U.Cause = "Clang 19 cannot resolve this device-side launch of '" +
                Callee->getName().getAsString() + "', a name " +
                std::to_string(Callee->getNumDecls()) + " overloaded kernels share";
      U.Workaround = "launchopt recovers such a launch when the number of arguments, or their "
                     "exact types, tell the overloads apart, the name is written unqualified "
                     "and the parent is not a class member; distinct kernel names always work";
    }
    Unresolved.push_back(std::move(U));
    return true;
  }

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *Call) {
    const clang::SourceManager &SM = Ctx.getSourceManager();
    clang::SourceLocation Loc = SM.getExpansionLoc(Call->getBeginLoc());
    bool Visible = SM.isInMainFile(Loc) || (IncludedFiles && !SM.isInSystemHeader(Loc));
    if (!Seen.insert(Loc.getRawEncoding()).second)
      return true;
    if (!Visible) {
      if (!SM.isInSystemHeader(Loc))
        noteIncludedFileLaunch(*Call, Loc);
      return true;
    }
    LaunchSite Site;
    Site.Call = Call;
    Site.Parent = CurrentFunction;
    Site.ParentName = CurrentFunction ? CurrentFunction->getNameAsString() : "<global>";
    Site.DeviceSide = CurrentFunction && (CurrentFunction->hasAttr<clang::CUDAGlobalAttr>() ||
                                          CurrentFunction->hasAttr<clang::CUDADeviceAttr>());
    Site.Position = positionOf(Ctx, Call->getBeginLoc());

    const clang::FunctionDecl *Callee = calleeOf(Call, Site.ChildName);
    if (!Callee)
      Site.UnresolvedReason = Site.ChildName.empty()
                                  ? "the launched kernel is not named directly"
                                  : "the launched kernel '" + Site.ChildName + "' is overloaded";
    else if (!(Site.Child = definitionOf(Callee)))
      Site.UnresolvedReason =
          "the definition of '" + Site.ChildName + "' is not in this translation unit";

    const clang::CallExpr *Config = Call->getConfig();
    auto ConfigArg = [&](unsigned I) -> const clang::Expr * {
      return Config && I < Config->getNumArgs() ? writtenOperand(Config->getArg(I)) : nullptr;
    };
    Site.Grid = ConfigArg(0);
    Site.Block = ConfigArg(1);
    Site.SharedMemory = ConfigArg(2);
    Site.Stream = ConfigArg(3);
    Site.StreamKind = classifyStream(Ctx, Site.Stream);
    if (Site.StreamKind == LaunchStream::Named)
      Site.CreatedStream = createdStream(CurrentFunction, Site.Stream);
    for (const clang::Expr *Arg : Call->arguments())
      if (!llvm::isa<clang::CXXDefaultArgExpr>(Arg))
        Site.Arguments.push_back(Arg);
    classifyContext(Site);
    if (!Closures.empty()) {
      Site.InClosure = Site.InLoop = true;
      Site.InDeferredClosure = handedToDeferral(*Closures.back());
    }
    Sites.push_back(Site);
    return true;
  }

  std::vector<LaunchSite> Sites;
  std::vector<UnresolvedLaunch> Unresolved;
  std::vector<IncludedFileLaunch> InIncludedFiles;

private:
  static bool isCoarseningLoop(const clang::ForStmt &For) {
    const auto *Init = llvm::dyn_cast_or_null<clang::DeclStmt>(For.getInit());
    if (!Init || !Init->isSingleDecl())
      return false;
    const auto *Var = llvm::dyn_cast<clang::VarDecl>(Init->getSingleDecl());
    if (!Var)
      return false;
    llvm::StringRef Name = Var->getName();
    const std::string *Loops = generated::coarsen::BlockLoopVariables;
    return Name == Loops[0] || Name == Loops[1] || Name == Loops[2];
  }

  // Whether control cannot run on from S into the statement after it: a
  // break or return, last in S.
  static bool endsInJump(const clang::Stmt *S) {
    if (const auto *Block = llvm::dyn_cast_or_null<clang::CompoundStmt>(S))
      return !Block->body_empty() && endsInJump(Block->body_back());
    if (const auto *Case = llvm::dyn_cast_or_null<clang::SwitchCase>(S))
      return endsInJump(Case->getSubStmt());
    return llvm::isa_and_nonnull<clang::BreakStmt, clang::ReturnStmt>(S);
  }

  // The case of a switch whose body holds Statement at its top level: the
  // arms are counted by the labels written at that level (`case 1: case 2:`
  // is one); an arm ends in a jump when its last statement, before the next
  // label, is a break or return.
  static std::optional<LaunchSite::Branch> caseOf(const clang::SwitchStmt &Switch,
                                                  const clang::Stmt *Statement) {
    const auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(Switch.getBody());
    if (!Body)
      return std::nullopt;
    std::vector<bool> Jumps; // per arm before the current one
    std::optional<unsigned> Arm;
    bool Labelled = false;
    const clang::Stmt *Last = nullptr;
    for (const clang::Stmt *S : Body->body()) {
      if (llvm::isa<clang::SwitchCase>(S)) {
        if (Labelled)
          Jumps.push_back(endsInJump(Last));
        Labelled = true;
      }
      if (S == Statement && Labelled)
        Arm = static_cast<unsigned>(Jumps.size());
      Last = S;
    }
    if (!Arm)
      return std::nullopt;
    Jumps.push_back(endsInJump(Last));
    unsigned Next = *Arm;
    while (Next < Jumps.size() && !Jumps[Next])
      ++Next;
    return LaunchSite::Branch{&Switch, *Arm, Next};
  }

  // Walks from the launch up to its function, noting loops, branches and the
  // conditions that pin the thread index to zero.
  void classifyContext(LaunchSite &Site) {
    clang::DynTypedNode Node = clang::DynTypedNode::create(*Site.Call);
    bool Coarsened = false;
    const clang::Stmt *From = nullptr, *Below = nullptr; // Below: the statement below From
    for (int Depth = 0; Depth < 256; ++Depth) {
      auto Parents = Ctx.getParents(Node);
      if (Parents.empty())
        return;
      Below = From;
      From = Node.get<clang::Stmt>();
      Node = Parents[0];
      if (Node.get<clang::FunctionDecl>())
        return;
      if (const auto *If = Node.get<clang::IfStmt>();
          If && From && !If->getConditionVariable() && !Coarsened) {
        for (IndexVariable V : {IndexVariable::Thread, IndexVariable::Block}) {
          unsigned Axes = If->getThen() == From   ? zeroWhenTrue(If->getCond(), V)
                          : If->getElse() == From ? zeroWhenFalse(If->getCond(), V)
                                                  : 0;
          (V == IndexVariable::Thread ? Site.ZeroThreadAxes : Site.ZeroBlockAxes) |= Axes;
        }
        Site.FixedThreadAxes |=
            If->getThen() == From
                ? zeroWhenTrue(If->getCond(), IndexVariable::Thread, IndexPin::BlockInvariant)
            : If->getElse() == From
                ? zeroWhenFalse(If->getCond(), IndexVariable::Thread, IndexPin::BlockInvariant)
                : 0;
      }
      if (const auto *Body = Node.get<clang::CompoundStmt>(); Body && From && !Coarsened) {
        Site.ZeroThreadAxes |= zeroAfterEarlyReturns(*Body, From, IndexVariable::Thread);
        Site.FixedThreadAxes |=
            zeroAfterEarlyReturns(*Body, From, IndexVariable::Thread, IndexPin::BlockInvariant);
        Site.ZeroBlockAxes |= zeroAfterEarlyReturns(*Body, From, IndexVariable::Block);
      }
      if (const auto *For = Node.get<clang::ForStmt>(); For && isCoarseningLoop(*For)) {
        // A coarsened block runs several original blocks: a guard on the
        // thread index leaves one thread per original block, not per block.
        Site.ZeroThreadAxes = Site.ZeroBlockAxes = Site.FixedThreadAxes = 0;
        Coarsened = true;
        continue;
      }
      if (Node.get<clang::ForStmt>() || Node.get<clang::WhileStmt>() || Node.get<clang::DoStmt>() ||
          Node.get<clang::CXXForRangeStmt>())
        Site.InLoop = true;
      if (const auto *If = Node.get<clang::IfStmt>();
          If && From && (If->getThen() == From || If->getElse() == From))
        Site.EnclosingBranches.push_back(
            {If, If->getElse() == From ? 1u : 0u, If->getElse() == From ? 1u : 0u});
      if (const auto *Switch = Node.get<clang::SwitchStmt>(); Switch && From && Below)
        if (From == Switch->getBody())
          if (std::optional<LaunchSite::Branch> Case = caseOf(*Switch, Below))
            Site.EnclosingBranches.push_back(*Case);
      if (Node.get<clang::IfStmt>() || Node.get<clang::SwitchStmt>() ||
          Node.get<clang::ConditionalOperator>())
        Site.InBranch = true;
    }
  }

  // Whether the closure is an argument of a call into launchopt's deferral
  // runtime, which runs it in a drain, at some time after the call.
  bool handedToDeferral(const clang::LambdaExpr &Closure) {
    clang::DynTypedNode Node = clang::DynTypedNode::create(Closure);
    for (int Depth = 0; Depth < 8; ++Depth) {
      auto Parents = Ctx.getParents(Node);
      if (Parents.empty())
        return false;
      Node = Parents[0];
      const auto *Call = Node.get<clang::CallExpr>();
      if (!Call)
        continue;
      const clang::FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return false;
      // The runtime keeps its functions in an anonymous namespace per file.
      std::string Name = Callee->getQualifiedNameAsString();
      for (size_t At; (At = Name.find("(anonymous namespace)::")) != std::string::npos;)
        Name.erase(At, std::strlen("(anonymous namespace)::"));
      return Name == "launchopt::deferral::defer" || Name == "launchopt::spawn::deferBlockChild";
    }
    return false;
  }

  void noteIncludedFileLaunch(const clang::CUDAKernelCallExpr &Call, clang::SourceLocation Loc) {
    IncludedFileLaunch L;
    L.Position = positionOf(Ctx, Loc);
    L.Parent = CurrentFunction ? CurrentFunction->getNameAsString() : "<global>";
    // A template's launch may name its child only through a dependent lookup.
    const clang::Expr *Named = Call.getCallee()->IgnoreImplicit();
    if (const clang::FunctionDecl *Callee = Call.getDirectCallee())
      L.Child = Callee->getNameAsString();
    else if (auto *Lookup = llvm::dyn_cast<clang::OverloadExpr>(Named))
      L.Child = Lookup->getName().getAsString();
    else if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Named))
      L.Child = Ref->getNameInfo().getAsString();
    else
      L.Child = "<unresolved>";
    L.DeviceSide = CurrentFunction && (CurrentFunction->hasAttr<clang::CUDAGlobalAttr>() ||
                                       CurrentFunction->hasAttr<clang::CUDADeviceAttr>());
    InIncludedFiles.push_back(std::move(L));
  }

  clang::ASTContext &Ctx;
  const clang::FunctionDecl *CurrentFunction = nullptr;
  std::vector<const clang::LambdaExpr *> Closures; // around the node being visited
  std::set<unsigned> Seen;
  std::set<unsigned> SeenUnresolved;
  bool IncludedFiles = false;
};

// A child is recursive when following launches from it reaches the parent.
void markRecursion(LaunchAnalysis &A) {
  std::map<std::string, std::set<std::string>> Launches;
  for (const LaunchSite &S : A.Sites)
    Launches[S.ParentName].insert(S.ChildName);
  for (LaunchSite &S : A.Sites) {
    std::set<std::string> Reached;
    std::function<void(const std::string &)> Visit = [&](const std::string &K) {
      if (!Reached.insert(K).second)
        return;
      for (const std::string &Next : Launches[K])
        Visit(Next);
    };
    Visit(S.ChildName);
    S.Recursive = Reached.count(S.ParentName) > 0;
  }
}

// The axes along which the parent's blocks may have more than one thread
// (Operand: Block), or its grids more than one block (Grid), over every
// launch of the parent seen here (bit 0/1/2: x/y/z): an integer varies only
// along x, a constant dim3 along its axes above 1; one not known, or a parent
// launched out of sight, along every axis.
unsigned wideAxes(const clang::ASTContext &Ctx, const LaunchAnalysis &A, const LaunchSite &S,
                  const clang::Expr *LaunchSite::*Operand) {
  unsigned Axes = 0;
  bool Launched = false;
  for (const LaunchSite &L : A.Sites) {
    if (L.Child != S.Parent && L.ChildName != S.ParentName)
      continue;
    Launched = true;
    const clang::Expr *Written = L.*Operand;
    if (!Written)
      return 7;
    if (Written->getType()->isIntegerType()) {
      Axes |= 1;
    } else if (std::optional<std::array<uint64_t, 3>> Shape = constantShape(Ctx, Written)) {
      Axes |= 1 | ((*Shape)[1] > 1 ? 2 : 0) | ((*Shape)[2] > 1 ? 4 : 0);
    } else {
      return 7;
    }
  }
  return Launched ? Axes : 7;
}

void markOneThreadPerBlock(const clang::ASTContext &Ctx, LaunchAnalysis &A) {
  for (LaunchSite &S : A.Sites) {
    S.FixedThreadAxes |= S.ZeroThreadAxes;
    if (S.InLoop || !(S.FixedThreadAxes & 1))
      continue;
    unsigned Needed = wideAxes(Ctx, A, S, &LaunchSite::Block);
    S.OneThreadPerBlock = (S.FixedThreadAxes & Needed) == Needed;
    S.ThreadZeroPerBlock = (S.ZeroThreadAxes & 1) && (S.ZeroThreadAxes & Needed) == Needed;
    unsigned NeededBlocks = wideAxes(Ctx, A, S, &LaunchSite::Grid);
    S.OneThreadPerGrid = S.OneThreadPerBlock && S.Parent &&
                         S.Parent->hasAttr<clang::CUDAGlobalAttr>() &&
                         (S.ZeroBlockAxes & NeededBlocks) == NeededBlocks;
  }
}

} // namespace

bool isTailLaunch(const clang::ASTContext &Ctx, const clang::CUDAKernelCallExpr &Call) {
  const clang::CallExpr *Config = Call.getConfig();
  return Config && Config->getNumArgs() > 3 &&
         classifyStream(Ctx, writtenOperand(Config->getArg(3))) == LaunchStream::TailLaunch;
}

bool mayShareStream(const LaunchSite &A, const LaunchSite &B) {
  if (A.CreatedStream || B.CreatedStream)
    return A.CreatedStream == B.CreatedStream;
  return true;
}

LaunchAnalysis analyzeLaunches(clang::ASTContext &Ctx, bool IncludedFiles) {
  LaunchCollector Collector(Ctx, IncludedFiles);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  LaunchAnalysis A;
  A.Sites = std::move(Collector.Sites);
  A.Unresolved = std::move(Collector.Unresolved);
  A.InIncludedFiles = std::move(Collector.InIncludedFiles);
  std::stable_sort(A.Sites.begin(), A.Sites.end(), [&](const LaunchSite &L, const LaunchSite &R) {
    return Ctx.getSourceManager().isBeforeInTranslationUnit(
        Ctx.getSourceManager().getExpansionLoc(L.Call->getBeginLoc()),
        Ctx.getSourceManager().getExpansionLoc(R.Call->getBeginLoc()));
  });
  for (unsigned I = 0; I < A.Sites.size(); ++I) {
    LaunchSite &S = A.Sites[I];
    S.Id = I + 1;
    A.SitesByParent[S.Parent].push_back(I);
    if (S.Child && !A.ChildFeatures.count(S.Child))
      A.ChildFeatures[S.Child] = computeKernelFeatures(*S.Child);
  }
  markRecursion(A);
  markOneThreadPerBlock(Ctx, A);
  markUnseenLaunchOrder(Ctx, A);
  return A;
}

std::vector<const LaunchSite *> hostLaunchesOf(const LaunchAnalysis &Launches,
                                               const clang::FunctionDecl &Kernel) {
  std::vector<const LaunchSite *> Hosts;
  for (const LaunchSite &Other : Launches.Sites)
    if (!Other.DeviceSide && Other.Child &&
        Other.Child->getCanonicalDecl() == Kernel.getCanonicalDecl())
      Hosts.push_back(&Other);
  return Hosts;
}

KernelFeatures featuresOf(const LaunchAnalysis &Launches, const clang::FunctionDecl &Kernel) {
  auto Found = Launches.ChildFeatures.find(&Kernel);
  return Found != Launches.ChildFeatures.end() ? Found->second : computeKernelFeatures(Kernel);
}

bool inLaunchCycle(const LaunchAnalysis &Launches, const clang::FunctionDecl *Child) {
  return std::any_of(Launches.Sites.begin(), Launches.Sites.end(),
                     [&](const LaunchSite &S) { return S.Child == Child && S.Recursive; });
}

} // namespace launchopt
