#include "PersistentBlockChild.h"

#include "RemovalChecks.h"
#include "Analysis/ConstantOperand.h"
#include "Analysis/Uniformity.h"
#include "Analysis/VariableWrites.h"
#include "Transforms/Common/Refusal.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace launchopt {

namespace {

using Shape = std::array<uint64_t, 3>;

std::string shapeText(const Shape &S) {
  return std::to_string(S[0]) + " x " + std::to_string(S[1]) + " x " + std::to_string(S[2]);
}

// Whether one component of a block operand is the launching block's own in
// that dimension: `blockDim.<same>`, or a constant (a default argument is 1)
// equal to the grid's extent there.
bool isLaunchingExtent(const clang::ASTContext &Ctx, const clang::Expr *Arg, int Dimension,
                       const Shape &Block) {
  if (!Arg || llvm::isa<clang::CXXDefaultArgExpr>(Arg))
    return Block[Dimension] == 1;
  Arg = stripConstruction(Arg);
  if (auto Member = builtinMember(Arg))
    return Member->first == "blockDim" && Member->second == Dimension;
  std::optional<uint64_t> Value = constantInteger(Ctx, Arg);
  return Value && *Value == Block[Dimension];
}

// A launch whose block is the launching block's own (`blockDim`,
// `dim3(blockDim.x, blockDim.y)` where the blocks have one layer, or
// `blockDim.x` where they are one-dimensional). Every block that records
// such a launch has the grid's shape, so the child block has it too.
bool isLaunchingBlockShape(const clang::ASTContext &Ctx, const clang::Expr *Operand,
                           const Shape &Block) {
  const clang::Expr *E = stripConstruction(writtenOperand(Operand));
  // `dim3 block(blockDim.x, blockDim.y); child<<<g, block>>>`.
  if (const clang::Expr *Init = unwrittenLocalInitializer(E))
    E = stripConstruction(Init);
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E))
    return isBuiltinIndexVariable(Ref->getDecl()) && Ref->getDecl()->getName() == "blockDim";
  if (auto *C = llvm::dyn_cast<clang::CXXConstructExpr>(E)) {
    if (C->getNumArgs() == 0 || C->getNumArgs() > 3)
      return false;
    // `dim3(blockDim)`, the launch's own conversion of a uint3.
    if (!C->getArg(0)->getType()->isIntegralOrEnumerationType())
      return (C->getNumArgs() == 1 || llvm::isa<clang::CXXDefaultArgExpr>(C->getArg(1))) &&
             isLaunchingBlockShape(Ctx, C->getArg(0), Block);
    for (int D = 0; D < 3; ++D)
      if (!isLaunchingExtent(Ctx, D < static_cast<int>(C->getNumArgs()) ? C->getArg(D) : nullptr, D,
                             Block))
        return false;
    return true;
  }
  return isLaunchingExtent(Ctx, E, 0, Block) && Block[1] == 1 && Block[2] == 1 &&
         builtinMember(E).has_value();
}

std::string lineOf(const LaunchSite &Site) { return "line " + std::to_string(Site.Position.Line); }

// The first return of the child that a thread may take without the rest of
// its block: one under a condition that is not the same for the whole block,
// or any return where some threads may leave a loop or an iteration early
// (a break, continue or goto under such a condition), which may leave the
// others alone at the return.
class DivergentReturn {
public:
  DivergentReturn(clang::ASTContext &Ctx, const clang::FunctionDecl &Child)
      : Ctx(Ctx), Child(Child) {}

  // The line of that return, or 0.
  unsigned find(const clang::Stmt *Body) {
    visit(Body, true);
    if (!Found && DivergentJump)
      Found = FirstReturn;
    return Found;
  }

private:
  void visit(const clang::Stmt *S, bool Uniform) {
    if (!S || Found)
      return;
    if (auto *R = llvm::dyn_cast<clang::ReturnStmt>(S)) {
      unsigned Line = Ctx.getSourceManager().getPresumedLineNumber(R->getBeginLoc());
      if (!FirstReturn)
        FirstReturn = Line;
      if (!Uniform)
        Found = Line;
      return;
    }
    if (llvm::isa<clang::BreakStmt, clang::ContinueStmt, clang::GotoStmt>(S) && !Uniform)
      DivergentJump = true;
    // A lambda's returns leave the lambda only.
    if (llvm::isa<clang::LambdaExpr>(S))
      return;
    const clang::Expr *Condition = nullptr;
    if (auto *If = llvm::dyn_cast<clang::IfStmt>(S))
      Condition = If->getCond();
    else if (auto *While = llvm::dyn_cast<clang::WhileStmt>(S))
      Condition = While->getCond();
    else if (auto *Do = llvm::dyn_cast<clang::DoStmt>(S))
      Condition = Do->getCond();
    else if (auto *For = llvm::dyn_cast<clang::ForStmt>(S))
      Condition = For->getCond();
    else if (auto *Switch = llvm::dyn_cast<clang::SwitchStmt>(S))
      Condition = Switch->getCond();
    else if (auto *Range = llvm::dyn_cast<clang::CXXForRangeStmt>(S))
      Condition = Range->getRangeInit();
    bool Inner =
        Uniform && (!Condition || isUniform(Ctx, *Condition, Child, UniformityScope::Block));
    for (const clang::Stmt *Sub : S->children())
      visit(Sub, Inner);
  }

  clang::ASTContext &Ctx;
  const clang::FunctionDecl &Child;
  unsigned Found = 0;
  unsigned FirstReturn = 0;
  bool DivergentJump = false;
};

} // namespace

bool childRunsAsWholeBlocks(const LaunchAnalysis &Launches, const LaunchSite &Site) {
  return Site.Child && Launches.ChildFeatures.count(Site.Child) &&
         childNeedsBlock(Launches.ChildFeatures.at(Site.Child));
}

llvm::Error persistentBlockChildRefusal(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                        const LaunchSite &Site) {
  const KernelFeatures &F = Launches.ChildFeatures.at(Site.Child);
  // The block's and its warps' barriers hold in a block of the grid that
  // runs the child block with the same threads (a cooperative group's sync
  // in a launched child is a block's or a tile's: a grid's cannot be).
  for (const std::string &Barrier : F.Barriers)
    if (!llvm::StringRef(Barrier).starts_with("__syncthreads") && Barrier != "__syncwarp" &&
        Barrier != "cooperative_groups sync")
      return refusal("child uses " + Barrier +
                     ": the persistent grid runs a child block as one of its blocks, where only "
                     "the block's and its warps' own barriers (__syncthreads, __syncwarp, a "
                     "group's sync) are known to hold");
  // The grid's blocks are the parent's: every host launch of the parent
  // must have one constant shape.
  std::optional<Shape> Block;
  std::optional<uint64_t> SharedBytes;
  for (const LaunchSite *Host : hostLaunchesOf(Launches, *Site.Parent)) {
    std::optional<Shape> S = constantShape(Ctx, Host->Block);
    if (!S || (Block && *S != *Block))
      return refusal("the child's threads work together, so a block of the persistent grid runs "
                     "a child block with the same threads, but the parent's block at " +
                     lineOf(*Host) +
                     (S ? " differs from another of its launches" : " is not a constant"));
    Block = S;
    std::optional<uint64_t> Bytes =
        Host->SharedMemory ? constantInteger(Ctx, Host->SharedMemory->IgnoreParenImpCasts()) : 0;
    if (!Bytes)
      return refusal("the parent's dynamic shared memory at " + lineOf(*Host) +
                     " is not a constant: the child blocks the persistent grid runs use it");
    SharedBytes = SharedBytes ? std::min(*SharedBytes, *Bytes) : *Bytes;
  }
  if (!Block)
    return refusal("the parent is not launched in this file: its launches could not be made "
                   "persistent");
  std::vector<const LaunchSite *> Recorded = selfLaunches(Launches, *Site.Parent);
  if (Site.Child->getCanonicalDecl() != Site.Parent->getCanonicalDecl())
    for (const LaunchSite *Own : selfLaunches(Launches, *Site.Child))
      Recorded.push_back(Own);
  for (const LaunchSite *R : Recorded) {
    // A child of independent threads runs in any block, as a loop over its
    // threads.
    if (!childRunsAsWholeBlocks(Launches, *R))
      continue;
    std::optional<Shape> S = isLaunchingBlockShape(Ctx, R->Block, *Block)
                                 ? std::optional<Shape>(*Block)
                                 : constantShape(Ctx, R->Block);
    // A template's launch may name its parameters (`<<<4, NUM_THREADS>>>`).
    if (!S)
      S = constantShapeUnder(Ctx, *R->Parent, R->Block, hostLaunchesOf(Launches, *Site.Parent));
    if (!S || *S != *Block)
      return refusal("the child's threads work together, so a block of the persistent grid (" +
                     shapeText(*Block) +
                     " threads, the parent's) runs a child block only of "
                     "the same shape; the launch at " +
                     lineOf(*R) +
                     (S ? " has blocks of " + shapeText(*S) + " threads"
                        : " has a block shape that is not a constant"));
    // A size the child never reads needs no room in the grid's blocks.
    bool ReadsSize = R->SharedMemory && !childIgnoresSharedMemorySize(Ctx, *R);
    std::optional<uint64_t> Bytes =
        ReadsSize ? constantInteger(Ctx, R->SharedMemory->IgnoreParenImpCasts()) : 0;
    if (!Bytes && ReadsSize)
      if (std::optional<Shape> Under = constantShapeUnder(Ctx, *R->Parent, R->SharedMemory,
                                                          hostLaunchesOf(Launches, *Site.Parent)))
        Bytes = (*Under)[0];
    if (!Bytes || *Bytes > *SharedBytes)
      return refusal("the launch at " + lineOf(*R) + " may need more dynamic shared memory (" +
                     (Bytes ? std::to_string(*Bytes) + " bytes" : std::string("not a constant")) +
                     ") than the parent's launches give the persistent grid's blocks (" +
                     std::to_string(*SharedBytes) + " bytes)");
  }
  DivergentReturn Returns(Ctx, *Site.Child);
  if (unsigned Line = Returns.find(Site.Child->getBody()))
    return refusal("a thread of the child may return at line " + std::to_string(Line) +
                   " without the rest of its block (a condition not the same for the whole "
                   "block): the persistent grid runs a child block of barriers as one block, "
                   "whose threads must leave it together");
  return llvm::Error::success();
}

} // namespace launchopt
