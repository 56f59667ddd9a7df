#include "CooperativeGroups.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace launchopt {

namespace {

// The library's own formulas (cooperative_groups/details/helpers.h): ranks
// are linear in x, then y, then z.
const char *const ThreadRank =
    "((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x)";
const char *const BlockThreads = "(blockDim.x * blockDim.y * blockDim.z)";
const char *const BlockRank =
    "((unsigned long long)(blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x)";
const char *const GridBlocks = "((unsigned long long)gridDim.x * (gridDim.y * gridDim.z))";

std::string vector3(const std::string &X, const std::string &Y, const std::string &Z) {
  return "dim3(" + X + ", " + Y + ", " + Z + ")";
}

std::string ofAxes(const char *Builtin) {
  std::string B = Builtin;
  return vector3(B + ".x", B + ".y", B + ".z");
}

// The formula of a thread block's member, or empty when it reads nothing.
std::string threadBlockFormula(llvm::StringRef Member) {
  if (Member == "thread_rank")
    return ThreadRank;
  if (Member == "size" || Member == "num_threads")
    return BlockThreads;
  if (Member == "group_index")
    return ofAxes("blockIdx");
  if (Member == "thread_index")
    return ofAxes("threadIdx");
  if (Member == "dim_threads" || Member == "group_dim" || Member == "block_dim")
    return ofAxes("blockDim");
  return "";
}

std::string gridFormula(llvm::StringRef Member) {
  if (Member == "thread_rank")
    return std::string("(") + BlockRank + " * " + BlockThreads + " + " + ThreadRank + ")";
  if (Member == "size" || Member == "num_threads")
    return std::string("(") + GridBlocks + " * " + BlockThreads + ")";
  if (Member == "block_rank")
    return BlockRank;
  if (Member == "num_blocks")
    return GridBlocks;
  if (Member == "block_index")
    return ofAxes("blockIdx");
  if (Member == "dim_blocks" || Member == "group_dim")
    return ofAxes("gridDim");
  if (Member == "dim_threads")
    return vector3("gridDim.x * blockDim.x", "gridDim.y * blockDim.y", "gridDim.z * blockDim.z");
  if (Member == "thread_index")
    return vector3("blockIdx.x * blockDim.x + threadIdx.x", "blockIdx.y * blockDim.y + threadIdx.y",
                   "blockIdx.z * blockDim.z + threadIdx.z");
  return "";
}

bool isWarpCollective(llvm::StringRef Member) {
  return Member == "sync" || Member.starts_with("shfl") || Member == "any" || Member == "all" ||
         Member == "ballot" || Member.starts_with("match_");
}

bool isIndexQuery(llvm::StringRef Member) {
  return Member == "thread_rank" || Member == "size" || Member == "num_threads" ||
         Member == "meta_group_rank" || Member == "meta_group_size" || Member.ends_with("_index") ||
         Member.starts_with("dim_") || Member.ends_with("_rank") || Member == "group_dim" ||
         Member == "num_blocks";
}

} // namespace

bool isCooperativeGroupsDecl(const clang::Decl *D) {
  for (const clang::DeclContext *C = D ? D->getDeclContext() : nullptr; C; C = C->getParent())
    if (auto *N = llvm::dyn_cast<clang::NamespaceDecl>(C))
      if (N->getName() == "cooperative_groups")
        return true;
  return false;
}

std::optional<GroupQuery> groupQueryOf(const clang::ASTContext &Ctx, const clang::CallExpr &Call) {
  auto *Method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(Call.getDirectCallee());
  if (!Method || !isCooperativeGroupsDecl(Method))
    return std::nullopt;
  // The group is the object's class (a tile's members live in bases).
  const clang::CXXRecordDecl *Group = Method->getParent();
  // Static members (a tile's thread_rank) are called through a MemberExpr too.
  if (auto *Member = llvm::dyn_cast<clang::MemberExpr>(Call.getCallee()->IgnoreParenImpCasts())) {
    clang::QualType Object = Member->getBase()->IgnoreImpCasts()->getType();
    if (Object->isPointerType())
      Object = Object->getPointeeType();
    if (const clang::CXXRecordDecl *Record = Object->getAsCXXRecordDecl())
      Group = Record;
  }
  GroupQuery Q;
  Q.Group = Group->getNameAsString();
  Q.Member = Method->getNameAsString();
  llvm::StringRef Member = Q.Member;
  std::string Formula;
  if (Q.Group == "thread_block") {
    Q.BlockBarrier = Member == "sync";
    Formula = threadBlockFormula(Member);
  } else if (Q.Group == "grid_group") {
    Formula = gridFormula(Member);
    if (Member == "sync")
      Q.Problem = "synchronizes the whole grid, which a device-side launch cannot";
  } else if (Q.Group == "thread_block_tile") {
    Q.WarpCollective = isWarpCollective(Member);
    auto *Tile = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(Group);
    const clang::TemplateArgumentList *Args = Tile ? &Tile->getTemplateArgs() : nullptr;
    if (!Args || Args->size() < 1 || Args->get(0).getKind() != clang::TemplateArgument::Integral)
      return Q;
    std::string Size = std::to_string(Args->get(0).getAsIntegral().getZExtValue());
    // A static tile of a thread block holds consecutive ranks of the block.
    bool OfBlock = Args->size() > 1 && Args->get(1).getKind() == clang::TemplateArgument::Type &&
                   Args->get(1).getAsType()->getAsCXXRecordDecl() &&
                   Args->get(1).getAsType()->getAsCXXRecordDecl()->getName() == "thread_block";
    if (Member == "thread_rank")
      Formula = std::string("(") + ThreadRank + " % " + Size + ")";
    else if (OfBlock && Member == "meta_group_rank")
      Formula = std::string("(") + ThreadRank + " / " + Size + ")";
    else if (OfBlock && Member == "meta_group_size")
      Formula = std::string("((") + BlockThreads + " + " + Size + " - 1) / " + Size + ")";
    else if (Member == "meta_group_rank" || Member == "meta_group_size")
      Q.Problem = "is asked of a tile not partitioned from a thread_block";
  } else {
    Q.WarpCollective = isWarpCollective(Member);
  }
  if (!Formula.empty()) {
    clang::PrintingPolicy Policy = Ctx.getPrintingPolicy();
    Policy.SuppressScope = false;
    Q.Expression =
        "((" + Call.getType().getUnqualifiedType().getAsString(Policy) + ")" + Formula + ")";
  } else if (Q.Problem.empty() && isIndexQuery(Member) && Q.Group != "thread_block_tile" &&
             Q.Group != "thread_block" && Q.Group != "grid_group") {
    Q.Problem = "is asked of a " + Q.Group + ", whose threads are known only at run time";
  }
  return Q;
}

} // namespace launchopt
