#include "AllocationAggregation.h"

#include "Analysis/BlockReach.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <algorithm>

namespace launchopt {

namespace {

enum class HeapFunction { Malloc, CudaMalloc, Free, CudaFree };

std::optional<HeapFunction> heapFunctionNamed(llvm::StringRef Name) {
  if (Name == "malloc")
    return HeapFunction::Malloc;
  if (Name == "cudaMalloc")
    return HeapFunction::CudaMalloc;
  if (Name == "free")
    return HeapFunction::Free;
  if (Name == "cudaFree")
    return HeapFunction::CudaFree;
  return std::nullopt;
}

unsigned argumentCount(HeapFunction F) { return F == HeapFunction::CudaMalloc ? 2 : 1; }

bool isGlobalOrStd(const clang::DeclContext *DC) {
  DC = DC->getRedeclContext();
  return DC->isTranslationUnit() || DC->isStdNamespace();
}

// A use of malloc, cudaMalloc, free or cudaFree written in the main file.
struct HeapUse {
  const clang::Expr *Ref;
  HeapFunction Function;
  std::string Name;
};

class HeapUseFinder : public clang::RecursiveASTVisitor<HeapUseFinder> {
public:
  explicit HeapUseFinder(const clang::SourceManager &SM) : SM(SM) {}

  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    const auto *F = llvm::dyn_cast<clang::FunctionDecl>(E->getDecl());
    if (F && !llvm::isa<clang::CXXMethodDecl>(F) && isGlobalOrStd(F->getDeclContext()))
      note(E, F->getName());
    return true;
  }

  // A call whose arguments depend on template parameters names its callee
  // without resolving it.
  bool VisitUnresolvedLookupExpr(clang::UnresolvedLookupExpr *E) {
    if (E->getName().isIdentifier())
      note(E, E->getName().getAsIdentifierInfo()->getName());
    return true;
  }

  std::vector<HeapUse> Uses;

private:
  void note(const clang::Expr *E, llvm::StringRef Name) {
    std::optional<HeapFunction> F = heapFunctionNamed(Name);
    if (F && SM.isInMainFile(SM.getExpansionLoc(E->getBeginLoc())))
      Uses.push_back({E, *F, Name.str()});
  }
  const clang::SourceManager &SM;
};

// The function a use is written in, and whether a lambda lies between.
struct Enclosing {
  const clang::FunctionDecl *Function = nullptr;
  const clang::CallExpr *Call = nullptr; // the call it is the callee of
  bool InLambda = false;
};

Enclosing enclosingOf(clang::ASTContext &Ctx, const clang::Expr &Ref) {
  Enclosing Out;
  clang::DynTypedNode Node = clang::DynTypedNode::create(Ref);
  const clang::Stmt *Child = &Ref;
  for (int Depth = 0; Depth < 512; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return Out;
    Node = Parents[0];
    if (const auto *F = Node.get<clang::FunctionDecl>()) {
      Out.Function = F;
      return Out;
    }
    if (Node.get<clang::LambdaExpr>())
      Out.InLambda = true;
    const auto *S = Node.get<clang::Stmt>();
    if (!Out.Call && Child) {
      if (const auto *Call = llvm::dyn_cast_or_null<clang::CallExpr>(S)) {
        if (Call->getCallee()->IgnoreParenImpCasts() == &Ref)
          Out.Call = Call;
        Child = nullptr;
      } else if (S && (llvm::isa<clang::ImplicitCastExpr>(S) || llvm::isa<clang::ParenExpr>(S))) {
        Child = S;
      } else {
        Child = nullptr;
      }
    }
  }
  return Out;
}

bool isDeviceOnly(const clang::FunctionDecl &F) {
  return F.hasAttr<clang::CUDAGlobalAttr>() ||
         (F.hasAttr<clang::CUDADeviceAttr>() && !F.hasAttr<clang::CUDAHostAttr>());
}

bool runsOnDevice(const clang::FunctionDecl &F) {
  return F.hasAttr<clang::CUDAGlobalAttr>() || F.hasAttr<clang::CUDADeviceAttr>();
}

// The embedded runtime of an earlier run allocates for itself.
bool inRuntime(const clang::FunctionDecl &F) {
  for (const clang::DeclContext *DC = F.getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(DC))
      if (NS->getName() == "launchopt")
        return true;
  return false;
}

std::string functionName(const clang::FunctionDecl &F) {
  std::string Name = F.getNameAsString();
  return Name.empty() ? "a lambda" : "'" + Name + "'";
}

LaunchRemark remarkAt(clang::ASTContext &Ctx, const HeapUse &U, const clang::FunctionDecl *F) {
  LaunchRemark R;
  R.Position = positionOf(Ctx, U.Ref->getBeginLoc());
  R.Pass = "aggregate";
  R.Subject = U.Name;
  R.Parent = F ? F->getNameAsString() : "";
  return R;
}

} // namespace

AllocationRewrites aggregateAllocations(clang::ASTContext &Ctx,
                                        const std::vector<FileRange> &AggregatedBodies,
                                        const std::vector<FileRange> &LaunchStatements,
                                        AggregationGranularity Granularity) {
  HeapUseFinder Finder(Ctx.getSourceManager());
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());

  AllocationRewrites Out;
  std::vector<LaunchRemark> Refusals;
  auto Refuse = [&](const HeapUse &U, const clang::FunctionDecl *F, const std::string &Why) {
    LaunchRemark R = remarkAt(Ctx, U, F);
    R.Message = "device-side allocations and frees left as written: '" + U.Name + "' " + Why +
                "; pieces of aggregated allocations could not be freed then";
    Refusals.push_back(R);
  };
  for (const HeapUse &U : Finder.Uses) {
    Enclosing E = enclosingOf(Ctx, *U.Ref);
    if (!E.Function || !runsOnDevice(*E.Function) || inRuntime(*E.Function))
      continue;
    if (E.InLambda || !isDeviceOnly(*E.Function)) {
      Refuse(U, E.Function,
             E.InLambda ? "is called in a lambda"
                        : "is called in " + functionName(*E.Function) +
                              ", a __host__ __device__ function");
      continue;
    }
    if (!E.Call || E.Call->getNumArgs() != argumentCount(U.Function)) {
      Refuse(U, E.Function, "is used other than called (its address is taken)");
      continue;
    }
    std::optional<FileRange> Callee = writtenRange(Ctx, U.Ref->getSourceRange());
    if (!Callee) {
      Refuse(U, E.Function, "is called inside a macro");
      continue;
    }
    if (std::any_of(LaunchStatements.begin(), LaunchStatements.end(),
                    [&](const FileRange &L) { return L.contains(*Callee); })) {
      Refuse(U, E.Function, "is called inside an aggregated launch statement");
      continue;
    }
    bool Aggregated = false;
    const clang::Stmt *FunctionBody = E.Function->getBody();
    if (std::optional<FileRange> Body =
            FunctionBody ? writtenRange(Ctx, FunctionBody->getSourceRange()) : std::nullopt)
      Aggregated =
          std::any_of(AggregatedBodies.begin(), AggregatedBodies.end(), [&](const FileRange &B) {
            return B.Begin == Body->Begin && B.End == Body->End;
          });
    bool Allocates = U.Function == HeapFunction::Malloc || U.Function == HeapFunction::CudaMalloc;
    std::string Level = "single";
    if (Allocates && Aggregated)
      Level = Granularity != AggregationGranularity::Warp &&
                      reachedByWholeBlock(Ctx, *E.Call, *E.Function)
                  ? "block"
                  : "warp";
    std::string Replacement;
    switch (U.Function) {
    case HeapFunction::Malloc:
      Replacement = "launchopt::" + Level + "Malloc";
      break;
    case HeapFunction::CudaMalloc:
      Replacement = "launchopt::" + Level + "CudaMalloc";
      break;
    case HeapFunction::Free:
      Replacement = "launchopt::groupFree";
      break;
    case HeapFunction::CudaFree:
      Replacement = "launchopt::groupCudaFree";
      break;
    }
    Out.Edits.push_back({Callee->Begin, Callee->End - Callee->Begin, Replacement});
    LaunchRemark R = remarkAt(Ctx, U, E.Function);
    R.Applied = true;
    std::string In = "'" + U.Name + "' in " + functionName(*E.Function);
    if (!Allocates)
      R.Message = In + " frees through " + Replacement;
    else if (Level == "single")
      R.Message = In + " allocates alone with a group header (" + Replacement +
                  "): not in a kernel whose launches are aggregated";
    else
      R.Message = In + ": one allocation per " + Level + ", then split (" + Replacement + ")";
    if (Allocates)
      R.Parameters["granularity"] = Level;
    Out.Remarks.push_back(R);
  }
  if (!Refusals.empty()) {
    Out.Edits.clear();
    Out.Remarks = std::move(Refusals);
  }
  return Out;
}

} // namespace launchopt
