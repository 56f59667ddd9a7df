#include "FusionTemporal.h"

#include "FusionCodegen.h"
#include "Analysis/SourceText.h"
#include "Support/GeneratedNames.h"
#include "Support/MakeError.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <array>
#include <functional>

namespace launchopt {

using namespace clang;

namespace {

const VarDecl *variableOf(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

// Every variable a statement names, and whether it assigns, increments or
// takes the address of one of Watched.
struct Mentions : RecursiveASTVisitor<Mentions> {
  std::set<const VarDecl *> Named;
  std::set<const VarDecl *> Watched;
  bool Modifies = false;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      Named.insert(V);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
        Watched.count(variableOf(U->getSubExpr())))
      Modifies = true;
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp() && Watched.count(variableOf(B->getLHS())))
      Modifies = true;
    return true;
  }
};

Mentions mentionsOf(const Stmt *S, std::set<const VarDecl *> Watched = {}) {
  Mentions M;
  M.Watched = std::move(Watched);
  M.TraverseStmt(const_cast<Stmt *>(S));
  return M;
}

const Stmt *parentStmt(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

// The counted loop `for (int i = A; i < N; ++i)` around a launch, as what
// the rewritten body needs.
struct TimeLoop {
  const ForStmt *Loop = nullptr;
  const CompoundStmt *Body = nullptr;
  const Stmt *Launch = nullptr; // the statement of Body holding the launch
  const VarDecl *Counter = nullptr;
  std::string Start, Bound;
};

llvm::Expected<TimeLoop> timeLoopOf(ASTContext &Ctx, const Stmt *Call) {
  TimeLoop T;
  const Stmt *S = Call;
  const Stmt *Parent = parentStmt(Ctx, S);
  while (Parent && isa<ExprWithCleanups>(Parent)) {
    S = Parent;
    Parent = parentStmt(Ctx, S);
  }
  T.Body = dyn_cast_or_null<CompoundStmt>(Parent);
  T.Loop = T.Body ? dyn_cast_or_null<ForStmt>(parentStmt(Ctx, T.Body)) : nullptr;
  // Not in a loop: nothing to fuse over time, and nothing to say.
  if (!T.Loop)
    return makeError("");
  T.Launch = S;
  const auto *Init = dyn_cast_or_null<DeclStmt>(T.Loop->getInit());
  const auto *Counter =
      Init && Init->isSingleDecl() ? dyn_cast<VarDecl>(Init->getSingleDecl()) : nullptr;
  const auto *Start = Counter
                          ? dyn_cast_or_null<IntegerLiteral>(
                                Counter->getInit() ? Counter->getInit()->IgnoreImpCasts() : nullptr)
                          : nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(T.Loop->getCond());
  const auto *Inc = dyn_cast_or_null<UnaryOperator>(T.Loop->getInc());
  if (!Start || !Counter->getType()->isIntegerType() || !Cond || Cond->getOpcode() != BO_LT ||
      variableOf(Cond->getLHS()) != Counter || !Inc || !Inc->isIncrementOp() ||
      variableOf(Inc->getSubExpr()) != Counter)
    return makeError("the loop at line " +
                     std::to_string(Ctx.getSourceManager().getSpellingLineNumber(
                         Ctx.getSourceManager().getExpansionLoc(T.Loop->getBeginLoc()))) +
                     " is not `for (int i = <literal>; i < <bound>; ++i)`");
  const Expr *Bound = Cond->getRHS();
  if (Bound->HasSideEffects(Ctx) || !writtenRange(Ctx, Bound->getSourceRange()))
    return makeError("the loop's bound has side effects or comes from a macro");
  T.Counter = Counter;
  T.Start = std::to_string(Start->getValue().getZExtValue());
  T.Bound = textOf(Ctx, *writtenRange(Ctx, Bound->getSourceRange()));
  return T;
}

// `std::swap(a, b)` of two variables, else nothing.
std::pair<const VarDecl *, const VarDecl *> swapOf(const Stmt *S) {
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(S))
    S = Cleanups->getSubExpr();
  const auto *Call = dyn_cast<CallExpr>(S);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || Callee->getName() != "swap" || !Callee->isInStdNamespace() ||
      Call->getNumArgs() != 2)
    return {nullptr, nullptr};
  return {variableOf(Call->getArg(0)), variableOf(Call->getArg(1))};
}

// The site's axes: Pitch[a] is the monomial an offset along axis a is a
// multiple of (empty for x), found from `pitch * (blockIdx.a * blockDim.a +
// threadIdx.a)`, or `pitch * blockIdx.a` with a block one thread deep there.
struct SiteAxes {
  std::optional<IndexMonomial> Pitch[3];
};

int builtinAxis(llvm::StringRef Factor, llvm::StringRef Builtin) {
  llvm::StringRef Bare = Factor;
  while (Bare.starts_with("(") && Bare.ends_with(")"))
    Bare = Bare.drop_front().drop_back();
  for (int Axis = 0; Axis < 3; ++Axis)
    if (Bare == (Builtin + "." + std::string(1, "xyz"[Axis])).str())
      return Axis;
  return -1;
}

llvm::Expected<SiteAxes> siteAxes(const IndexPolynomial &Site, const unsigned Block[3],
                                  bool ConstantBlock) {
  SiteAxes A;
  std::optional<IndexMonomial> ThreadPitch[3], BlockPitch[3];
  bool BlockOnly[3] = {false, false, false};
  for (const auto &[Monomial, Coefficient] : Site) {
    int T = -1, B = -1, D = -1, Builtins = 0;
    IndexMonomial Rest;
    for (const std::string &F : Monomial) {
      if (int Axis = builtinAxis(F, "threadIdx"); Axis >= 0) {
        T = Axis;
        ++Builtins;
      } else if (int Axis = builtinAxis(F, "blockIdx"); Axis >= 0) {
        B = Axis;
        ++Builtins;
      } else if (int Axis = builtinAxis(F, "blockDim"); Axis >= 0) {
        D = Axis;
        ++Builtins;
      } else if (llvm::StringRef(F).contains("Idx") || llvm::StringRef(F).contains("Dim")) {
        return makeError("the site " + indexText(Site) + " uses a built-in in '" + F + "'");
      } else {
        Rest.push_back(F);
      }
    }
    if (!Builtins)
      continue;
    if (Coefficient != 1)
      return makeError("the site " + indexText(Site) + " is not row-major in the thread index");
    if (Builtins == 1 && T >= 0 && !ThreadPitch[T])
      ThreadPitch[T] = Rest;
    else if (Builtins == 2 && B >= 0 && B == D && !BlockPitch[B])
      BlockPitch[B] = Rest;
    else if (Builtins == 1 && B >= 0 && !BlockPitch[B]) {
      BlockPitch[B] = Rest;
      BlockOnly[B] = true;
    } else
      return makeError("the site " + indexText(Site) + " is not row-major in the thread index");
  }
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    if (BlockOnly[Axis]) {
      if (ThreadPitch[Axis] || !ConstantBlock || Block[Axis] != 1)
        return makeError("the site's axis " + std::string(1, "xyz"[Axis]) +
                         " is the block index alone and the block is not one thread deep there");
      A.Pitch[Axis] = BlockPitch[Axis];
      continue;
    }
    if (!ThreadPitch[Axis] && !BlockPitch[Axis])
      continue;
    if (!ThreadPitch[Axis] || !BlockPitch[Axis] || *ThreadPitch[Axis] != *BlockPitch[Axis])
      return makeError("the site " + indexText(Site) + " is not row-major in the thread index");
    A.Pitch[Axis] = ThreadPitch[Axis];
  }
  if (!A.Pitch[0] || !A.Pitch[0]->empty())
    return makeError("the site " + indexText(Site) + " is not unit-stride along x");
  for (unsigned I = 0; I < 3; ++I)
    for (unsigned J = I + 1; J < 3; ++J)
      if (A.Pitch[I] && A.Pitch[J] && *A.Pitch[I] == *A.Pitch[J])
        return makeError("two axes of the site " + indexText(Site) + " have one pitch");
  return A;
}

// An offset from the site as steps along the axes.
std::optional<std::array<long long, 3>> axisOffset(const IndexPolynomial &Offset,
                                                   const SiteAxes &A) {
  std::array<long long, 3> D = {0, 0, 0};
  for (const auto &[Monomial, Coefficient] : Offset) {
    bool Found = false;
    for (unsigned Axis = 0; Axis < 3 && !Found; ++Axis)
      if (A.Pitch[Axis] && *A.Pitch[Axis] == Monomial) {
        D[Axis] += Coefficient;
        Found = true;
      }
    if (!Found)
      return std::nullopt;
  }
  return D;
}

const char *const NeighbourHelper =
    R"(// The thread at a site's offset along the grid's axes, if the grid has one.
static __device__ __forceinline__ bool NAME(const uint3 b, const uint3 t, int dx, int dy, int dz,
                                              uint3 &vb, uint3 &vt) {
  const long long gx = (long long)b.x * blockDim.x + t.x + dx;
  const long long gy = (long long)b.y * blockDim.y + t.y + dy;
  const long long gz = (long long)b.z * blockDim.z + t.z + dz;
  if (gx < 0 || gy < 0 || gz < 0 || gx >= (long long)gridDim.x * blockDim.x ||
      gy >= (long long)gridDim.y * blockDim.y || gz >= (long long)gridDim.z * blockDim.z)
    return false;
  vb = make_uint3(unsigned(gx / blockDim.x), unsigned(gy / blockDim.y), unsigned(gz / blockDim.z));
  vt = make_uint3(unsigned(gx % blockDim.x), unsigned(gy % blockDim.y), unsigned(gz % blockDim.z));
  return true;
}

)";

// The definitions of the tiled kernel of K: the cells of the widest level's
// tile, the read of a step's value (the input in GMEM for step 0, else the
// tile of that step, or the buffer where the step wrote nothing), the step
// copy Copy, one step over the block widened by its remaining reach into a
// tile, and the kernel. The tiles of two consecutive steps are in dynamic
// shared memory at once, values then written flags.
std::string tileDefinitions(const FunctionDecl &K, const std::string &Names,
                            const std::string &Element, const std::string &Params,
                            const unsigned Reach[3], int In, int Out, const std::string &StepFn,
                            const std::string &ReadFn, const std::string &Kernel,
                            const std::string &Copy) {
  const std::string Name = K.getNameAsString();
  const std::string T = generated::TemporalLocal;
  const std::string Cells = generated::TemporalTileCells + Name;
  const std::string Level = generated::TemporalTileLevel + Name;
  const std::string Memory = generated::TemporalTileMemory;
  const std::string InName = K.getParamDecl(In)->getNameAsString();
  const std::string OutName = K.getParamDecl(Out)->getNameAsString();
  std::string R[3];
  for (unsigned Axis = 0; Axis < 3; ++Axis)
    R[Axis] = std::to_string(Reach[Axis]);
  // The tile of step J of a group of K: the block widened by (K - J) reaches.
  auto Widths = [&](const std::string &Indent, bool Depth) {
    return Indent + "const int " + T + "wx = (" + T + "K - " + T + "J) * " + R[0] + ", " + T +
           "wy = (" + T + "K - " + T + "J) * " + R[1] + ", " + T + "wz = (" + T + "K - " + T +
           "J) * " + R[2] + ";\n" + Indent + "const int " + T + "tx = blockDim.x + 2 * " + T +
           "wx, " + T + "ty = blockDim.y + 2 * " + T + "wy" +
           (Depth ? ", " + T + "tz = blockDim.z + 2 * " + T + "wz" : std::string()) + ";\n" +
           Indent + "const int " + T + "cells = " + Cells + "(blockDim, " + T + "K);\n";
  };
  auto Tiles = [&](const std::string &Indent, const std::string &Const) {
    return Indent + Const + Element + " *" + T + "tile = (" + Const + Element + " *)" + Memory +
           " + (" + T + "J % 2) * " + T + "cells;\n" + Indent + Const + "bool *" + T +
           "written = (" + Const + "bool *)((" + Const + Element + " *)" + Memory + " + 2 * " + T +
           "cells) + (" + T + "J % 2) * " + T + "cells;\n";
  };
  const std::string Template = "template <int " + T + "J, int " + T + "K>\n";
  std::string D;
  D += "// Cells of the widest tile a block of K steps holds (step 1's).\n";
  D += "static __host__ __device__ __forceinline__ int " + Cells + "(const dim3 " + T + "d, int " +
       T + "K) {\n  return (" + T + "d.x + 2 * (" + T + "K - 1) * " + R[0] + ") * (" + T +
       "d.y + 2 * (" + T + "K - 1) * " + R[1] + ") * (" + T + "d.z + 2 * (" + T + "K - 1) * " +
       R[2] + ");\n}\n\n";
  D += "template <int " + T + "S, int " + T + "K>\nstatic __device__ __forceinline__ " + Element +
       " " + ReadFn + "(" + Params + ", const uint3 " + T + "b, const uint3 " + T +
       "i, int, int, int, long long);\n\n";
  D += "template <int " + T + "S, int " + T + "K>\n" + Copy;
  D += "// Step J's value at the neighbour at the offset, from its tile; a site that\n// no "
       "step writes keeps the buffer's value.\n";
  D += Template + "static __device__ __forceinline__ " + Element + " " + ReadFn + "(" + Params +
       ", const uint3 " + T + "b, const uint3 " + T + "i, int " + T + "dx, int " + T + "dy, int " +
       T + "dz, long long " + T + "e) {\n";
  D += "  if constexpr (" + T + "J == 0) {\n    return " + InName + "[" + T + "e];\n  } else {\n";
  D += Widths("    ", false);
  const char *Axes = "xyz";
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    std::string A(1, Axes[Axis]);
    D += "    const int " + T + "l" + A + " = int((long long)" + T + "b." + A + " * blockDim." + A +
         " + " + T + "i." + A + " + " + T + "d" + A + " - (long long)blockIdx." + A +
         " * blockDim." + A + ") + " + T + "w" + A + ";\n";
  }
  D += "    const int " + T + "l = (" + T + "lz * " + T + "ty + " + T + "ly) * " + T + "tx + " + T +
       "lx;\n";
  D += Tiles("    ", "const ");
  D += "    return " + T + "written[" + T + "l] ? " + T + "tile[" + T + "l] : " + T + "J % 2 ? " +
       OutName + "[" + T + "e] : " + InName + "[" + T + "e];\n  }\n}\n\n";
  D += "// Step J over the block widened by the reach of the steps after it, into\n// its tile; "
       "then the next step.\n";
  D += Template + "static __device__ __forceinline__ void " + Level + "(" + Params + ") {\n";
  D += "  if constexpr (" + T + "J < " + T + "K) {\n";
  D += Widths("    ", true);
  D += Tiles("    ", "");
  D += "    for (int " + T +
       "l = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + "
       "threadIdx.x;\n         " +
       T + "l < " + T + "tx * " + T + "ty * " + T + "tz; " + T +
       "l += blockDim.x * blockDim.y * blockDim.z) {\n";
  D += "      uint3 " + T + "vb, " + T + "vt;\n      " + Element + " " + T +
       "value{};\n      bool " + T + "set = false;\n";
  D += "      if (" + generated::TemporalNeighbour + "(blockIdx, make_uint3(0, 0, 0), " + T +
       "l % " + T + "tx - " + T + "wx, " + T + "l / " + T + "tx % " + T + "ty - " + T + "wy,\n" +
       "                " + std::string(generated::TemporalNeighbour.size(), ' ') + T + "l / (" +
       T + "tx * " + T + "ty) - " + T + "wz, " + T + "vb, " + T + "vt))\n";
  D += "        " + StepFn + "<" + T + "J, " + T + "K>(" + Names + ", " + T + "value, " + T +
       "set, " + T + "vb, " + T + "vt);\n";
  D += "      " + T + "tile[" + T + "l] = " + T + "value;\n      " + T + "written[" + T +
       "l] = " + T + "set;\n    }\n    __syncthreads();\n";
  D += "    " + Level + "<" + T + "J + 1, " + T + "K>(" + Names + ");\n  }\n}\n\n";
  D += "template <int " + T + "K>\n__global__ void " + Kernel + "(" + Params + ") {\n";
  D += "  " + Level + "<1, " + T + "K>(" + Names + ");\n";
  D += "  " + Element + " " + T + "value;\n  bool " + T + "written = false;\n";
  D += "  " + StepFn + "<" + T + "K, " + T + "K>(" + Names + ", " + T + "value, " + T +
       "written, blockIdx, threadIdx);\n}\n\n";
  return D;
}

} // namespace

llvm::Expected<TemporalFusion> fuseOverTime(ASTContext &Ctx, const FusionExtraction &X, unsigned L,
                                            unsigned Steps, unsigned MaxSteps, bool Tiles,
                                            const GpuDescription &Gpu, unsigned Index,
                                            std::set<std::string> &Emitted) {
  const ExtractedLaunch &Launch = X.Launches[L];
  const OriginalKernel &Original = X.Problem.Kernels[L];
  const FunctionDecl &K = *Launch.Site->Child;
  const std::string Name = K.getNameAsString();
  if (!Launch.Wrapper.empty())
    return makeError("the launch is inlined from the wrapper '" + Launch.Wrapper + "'");
  llvm::Expected<TimeLoop> Loop = timeLoopOf(Ctx, Launch.Site->Call);
  if (!Loop)
    return Loop.takeError();

  // The ping-pong pair: the body swaps the variables passed as a parameter
  // the kernel only reads and one it only writes.
  const auto *Call = cast<CallExpr>(Launch.Site->Call);
  const Stmt *Swap = nullptr;
  std::pair<const VarDecl *, const VarDecl *> Swapped;
  for (const Stmt *S : Loop->Body->body())
    if (auto P = swapOf(S); P.first && P.second) {
      if (Swap)
        return makeError("the loop's body swaps more than once");
      Swap = S;
      Swapped = P;
    }
  if (!Swap)
    return makeError("the loop's body swaps no buffers after the launch (std::swap)");
  if (Ctx.getSourceManager().isBeforeInTranslationUnit(Swap->getBeginLoc(),
                                                       Loop->Launch->getBeginLoc()))
    return makeError("the loop's body swaps the buffers before the launch");
  int In = -1, Out = -1;
  for (unsigned A = 0; A < Call->getNumArgs() && A < K.getNumParams(); ++A) {
    const VarDecl *V = variableOf(Call->getArg(A));
    if (V != Swapped.first && V != Swapped.second)
      continue;
    const ParameterAccess *Access = nullptr;
    for (const ParameterAccess &P : Launch.Access.Parameters)
      if (P.Index == A)
        Access = &P;
    if (!Access)
      return makeError("the swapped buffer '" + V->getNameAsString() +
                       "' is not a subscripted pointer parameter");
    int &Role = Access->Writes ? Out : In;
    if ((Access->Reads && Access->Writes) || Role >= 0)
      return makeError("the kernel does not read one swapped buffer and write the other");
    Role = int(A);
  }
  if (In < 0 || Out < 0 || variableOf(Call->getArg(In)) == variableOf(Call->getArg(Out)))
    return makeError("the kernel does not read one swapped buffer and write the other");
  const VarDecl *OutVar = variableOf(Call->getArg(Out));

  // Nothing else in the body may touch what the launch uses, nor the
  // counter; after the loop the output's variable must not be read.
  Mentions Used = mentionsOf(Loop->Launch);
  for (const Stmt *S : Loop->Body->body()) {
    if (S == Loop->Launch || S == Swap)
      continue;
    Mentions Other = mentionsOf(S, {Loop->Counter});
    if (Other.Modifies)
      return makeError("the loop's body changes its counter");
    for (const VarDecl *V : Other.Named)
      if (Used.Named.count(V))
        return makeError("another statement of the loop's body uses '" + V->getNameAsString() +
                         "', which the launch uses");
  }
  if (X.Host && X.Host->getBody()) {
    Mentions After;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S)
        return;
      if (Ctx.getSourceManager().isBeforeInTranslationUnit(
              Ctx.getSourceManager().getExpansionLoc(Loop->Loop->getEndLoc()),
              Ctx.getSourceManager().getExpansionLoc(S->getBeginLoc()))) {
        if (const auto *C = dyn_cast<CallExpr>(S))
          if (const FunctionDecl *F = C->getDirectCallee(); F && F->getName() == "cudaFree")
            return;
        if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl() == OutVar)
          After.Modifies = true;
      }
      for (const Stmt *Child : S->children())
        Walk(Child);
    };
    Walk(X.Host->getBody());
    if (After.Modifies)
      return makeError("'" + OutVar->getNameAsString() +
                       "' is used after the loop, where it would hold another step's values");
  }

  // The kernel: a stencil over its own site, storing the output once there,
  // reading the input at offsets along the grid's axes, nothing else written.
  if (!Launch.Access.Irregular.empty())
    return makeError(Launch.Access.Irregular);
  if (Original.Barrier)
    return makeError("the kernel synchronises its block");
  std::string BodyText = readableText(Ctx, K.getBody()->getSourceRange());
  for (const char *Word : {"__shared__", "__shfl", "__ballot", "__syncwarp", "atomic", "__any",
                           "__all", "cooperative_groups"})
    if (llvm::StringRef(BodyText).contains(Word))
      return makeError("the kernel uses " + std::string(Word) +
                       ", which a recomputed neighbour's step cannot");
  llvm::Expected<SiteAxes> Axes =
      siteAxes(Launch.Access.Site, Original.BlockDim, Launch.ConstantBlock);
  if (!Axes)
    return Axes.takeError();
  const ParameterAccess *InAccess = nullptr, *OutAccess = nullptr;
  for (const ParameterAccess &P : Launch.Access.Parameters) {
    if (int(P.Index) == In)
      InAccess = &P;
    else if (int(P.Index) == Out)
      OutAccess = &P;
    else if (P.Writes)
      return makeError("the kernel also writes '" + P.Name + "'");
    if (P.Indirect)
      return makeError("the kernel reads '" + P.Name + "' at an offset unknown before it runs");
  }
  QualType InType = K.getParamDecl(In)->getType()->getPointeeType().getUnqualifiedType();
  QualType OutType = K.getParamDecl(Out)->getType()->getPointeeType().getUnqualifiedType();
  if (!Ctx.hasSameType(InType, OutType))
    return makeError("the swapped buffers' element types differ");
  const std::string Element = OutType.getAsString(Ctx.getPrintingPolicy());

  if (Tiles && !Launch.ConstantBlock)
    return makeError("the block is not a constant, so the tiles' size is unknown");
  const std::string StepFn = (Tiles ? generated::TemporalTileStep : generated::TemporalStep) + Name;
  const std::string ReadFn = (Tiles ? generated::TemporalTileRead : generated::TemporalRead) + Name;
  const std::string S = generated::TemporalLocal + "S", KSteps = generated::TemporalLocal + "K";
  const std::string Value = generated::TemporalLocal + "value";
  const std::string Written = generated::TemporalLocal + "written";
  std::string Names;
  for (unsigned P = 0; P < K.getNumParams(); ++P) {
    if (K.getParamDecl(P)->getName().empty())
      return makeError("a parameter of the kernel has no name");
    Names += (P ? ", " : "") + K.getParamDecl(P)->getNameAsString();
  }

  unsigned Reach[3] = {0, 0, 0};
  std::vector<BodyEdit> Edits;
  for (const SubscriptAccess &A : InAccess->Subscripts) {
    std::optional<std::array<long long, 3>> D = axisOffset(A.Offset, *Axes);
    if (!D)
      return makeError("the kernel reads '" + InAccess->Name + "' at " + indexText(A.Offset) +
                       ", not a step along the grid's axes");
    std::optional<FileRange> R = readableRange(Ctx, A.Expr->getSourceRange());
    if (!R || A.Expr->getIdx()->HasSideEffects(Ctx))
      return makeError("a subscript of '" + InAccess->Name + "' comes from a macro");
    for (unsigned Axis = 0; Axis < 3; ++Axis)
      Reach[Axis] = std::max<unsigned>(Reach[Axis], unsigned(std::llabs((*D)[Axis])));
    Edits.push_back({R->Begin, R->End,
                     ReadFn + "<" + S + " - 1, " + KSteps + ">(" + Names +
                         ", blockIdx, threadIdx, " + std::to_string((*D)[0]) + ", " +
                         std::to_string((*D)[1]) + ", " + std::to_string((*D)[2]) + ", (" +
                         readableText(Ctx, A.Expr->getIdx()->getSourceRange()) + "))"});
  }
  for (const SubscriptAccess &A : OutAccess->Subscripts) {
    if (!A.PlainStore || A.Reads || !A.Offset.empty())
      return makeError("the kernel accesses '" + OutAccess->Name +
                       "' other than by a store at its own site");
    std::optional<FileRange> Store = readableRange(Ctx, A.PlainStore->getSourceRange());
    std::optional<FileRange> Target = readableRange(Ctx, A.Expr->getSourceRange());
    if (!Store || !Target || A.Expr->getIdx()->HasSideEffects(Ctx))
      return makeError("a store to '" + OutAccess->Name + "' comes from a macro");
    std::string Lhs = readableText(Ctx, A.Expr->getSourceRange());
    Edits.push_back({Store->Begin, Store->Begin, "(void)("});
    Edits.push_back({Target->Begin, Target->End, Value});
    Edits.push_back({Store->End, Store->End,
                     ", " + Written + " = true, " + S + " == " + KSteps + " ? (void)(" + Lhs +
                         " = " + Value + ") : (void)0)"});
  }
  std::sort(Edits.begin(), Edits.end(), [](const BodyEdit &A, const BodyEdit &B) {
    return std::make_pair(A.Begin, A.End) < std::make_pair(B.Begin, B.End);
  });

  // How many steps: forced, or the projection's choice.
  TemporalFusion T;
  unsigned PingPong = 0;
  for (const ArrayUse &U : Original.Uses)
    if (X.Allocations[U.Array] == variableOf(Call->getArg(In)))
      PingPong = U.Array;
  auto Project = Tiles ? projectTemporalTiles : projectTemporalFusion;
  T.Projection = Steps ? Project(X.Problem, L, PingPong, Reach, Steps, Gpu)
                       : chooseTemporalSteps(X.Problem, L, PingPong, Reach, MaxSteps, Gpu, Tiles);
  if (!T.Projection.Feasible)
    return makeError(std::to_string(Steps) +
                     " steps in tiles are not possible: " + T.Projection.Infeasibility);
  if (T.Projection.Steps < 2) {
    // The nearest miss, so that the remark says by how much.
    TemporalProjection Two = Project(X.Problem, L, PingPong, Reach, 2, Gpu);
    return makeError("no number of steps up to " + std::to_string(MaxSteps) +
                     " is projected faster per step than the original (2 steps: " +
                     llvm::formatv("{0:f3}", Two.SecondsPerStep * 1e6).str() +
                     " us per step against " +
                     llvm::formatv("{0:f3}", Two.OriginalPerStep * 1e6).str() + " us)");
  }

  std::optional<std::string> Copy =
      deviceBodyCopy(Ctx, K, StepFn, Element + " &" + Value + ", bool &" + Written + ", ", Edits);
  if (!Copy)
    return makeError("the kernel is a template or comes from a macro");
  std::string Params =
      readableText(Ctx, SourceRange(K.getParamDecl(0)->getBeginLoc(),
                                    K.getParamDecl(K.getNumParams() - 1)->getEndLoc()));
  const std::string Template = "template <int " + S + ", int " + KSteps + ">\n";
  T.Kernel = (Tiles ? generated::TemporalTileKernel : generated::TemporalKernel) + Name;
  const std::string Steps0 = generated::TemporalSteps + std::to_string(Index);
  const std::string Macro = generated::TemporalStepsMacro;
  T.Device = "// Temporal fusion of " + Name + " (launchopt fuse): " + Steps0 +
             (Tiles ? " steps per launch, the steps\n// before the last computed in shared-memory "
                      "tiles over the block widened by their reach.\n#ifdef "
                    : " steps per launch, each step's\n// neighbours recomputed in registers from "
                      "the step before.\n#ifdef ") +
             Macro + "\nstatic constexpr int " + Steps0 + " = " + Macro +
             ";\n#else\nstatic constexpr int " + Steps0 + " = " +
             std::to_string(T.Projection.Steps) + ";\n#endif\n";
  if (Emitted.insert(generated::TemporalNeighbour).second) {
    std::string Helper = NeighbourHelper;
    Helper.replace(Helper.find("NAME"), 4, generated::TemporalNeighbour);
    T.Device += Helper;
  }
  if (Tiles && Emitted.insert(generated::TemporalTileMemory).second)
    T.Device += "extern __shared__ __align__(16) unsigned char " + generated::TemporalTileMemory +
                "[];\n\n";
  if (Tiles && Emitted.insert("tiles " + Name).second) {
    T.Device +=
        tileDefinitions(K, Names, Element, Params, Reach, In, Out, StepFn, ReadFn, T.Kernel, *Copy);
  } else if (!Tiles && Emitted.insert(Name).second) {
    const std::string J = generated::TemporalLocal + "J", E = generated::TemporalLocal + "e";
    const std::string Vb = generated::TemporalLocal + "vb", Vt = generated::TemporalLocal + "vt";
    const std::string InName = K.getParamDecl(In)->getNameAsString();
    const std::string OutName = K.getParamDecl(Out)->getNameAsString();
    T.Device += Template + "static __device__ __forceinline__ " + Element + " " + ReadFn + "(" +
                Params + ", const uint3 " + generated::TemporalLocal + "b, const uint3 " +
                generated::TemporalLocal + "i, int, int, int, long long);\n\n";
    T.Device += Template + *Copy;
    T.Device += "// The input after " + J + " steps at index " + E +
                ", which the neighbour at the offset writes;\n// a site that no step "
                "writes keeps the buffer's value.\n";
    T.Device += Template + "static __device__ __forceinline__ " + Element + " " + ReadFn + "(" +
                Params + ", const uint3 " + generated::TemporalLocal + "b, const uint3 " +
                generated::TemporalLocal + "i, int " + generated::TemporalLocal + "dx, int " +
                generated::TemporalLocal + "dy, int " + generated::TemporalLocal +
                "dz, long long " + E + ") {\n";
    // The declaration above names the step count S; J is the same position.
    T.Device.replace(T.Device.rfind(Template), Template.size(),
                     "template <int " + J + ", int " + KSteps + ">\n");
    T.Device +=
        "  if constexpr (" + J + " == 0) {\n    return " + InName + "[" + E + "];\n  } else {\n";
    T.Device += "    uint3 " + Vb + ", " + Vt + ";\n    " + Element + " " + Value + "{};\n";
    T.Device += "    bool " + Written + " = false;\n";
    T.Device += "    if (" + generated::TemporalNeighbour + "(" + generated::TemporalLocal + "b, " +
                generated::TemporalLocal + "i, " + generated::TemporalLocal + "dx, " +
                generated::TemporalLocal + "dy, " + generated::TemporalLocal + "dz, " + Vb + ", " +
                Vt + "))\n";
    T.Device += "      " + StepFn + "<" + J + ", " + KSteps + ">(" + Names + ", " + Value + ", " +
                Written + ", " + Vb + ", " + Vt + ");\n";
    T.Device += "    return " + Written + " ? " + Value + " : " + J + " % 2 ? " + OutName + "[" +
                E + "] : " + InName + "[" + E + "];\n  }\n}\n\n";
    T.Device += "template <int " + KSteps + ">\n__global__ void " + T.Kernel + "(" + Params +
                ") {\n  " + Element + " " + Value + ";\n  bool " + Written + " = false;\n  " +
                StepFn + "<" + KSteps + ", " + KSteps + ">(" + Names + ", " + Value + ", " +
                Written + ", blockIdx, threadIdx);\n}\n\n";
  }

  // The host side: a group of Steps0 iterations launches once and swaps
  // once; the iterations that cannot fill a group run the original.
  const std::string Group = generated::TemporalGroup + std::to_string(Index);
  const std::string First = generated::TemporalFirst + std::to_string(Index);
  const std::string Counter = Loop->Counter->getNameAsString();
  const SourceManager &SM = Ctx.getSourceManager();
  const std::string Indent(SM.getExpansionColumnNumber(Loop->Launch->getBeginLoc()) - 1, ' ');
  std::string Args;
  for (unsigned A = 0; A < Launch.ArgumentText.size(); ++A)
    Args += (A ? ", " : "") + Launch.ArgumentText[A];
  T.Launch = "const bool " + Group + " = (" + Counter + " - " + Loop->Start + ") / " + Steps0 +
             " * " + Steps0 + " + " + Steps0 + " <= (" + Loop->Bound + ") - " + Loop->Start +
             ";\n" + Indent + "const bool " + First + " = (" + Counter + " - " + Loop->Start +
             ") % " + Steps0 + " == 0;\n" + Indent + "if (!" + Group + ")\n" + Indent + "  " +
             Launch.StatementText + "\n" + Indent + "else if (" + First + ")";
  if (Tiles) {
    const std::string Block = generated::TemporalTileBlock + std::to_string(Index);
    T.Launch += " {\n" + Indent + "  const dim3 " + Block + " = dim3(" + Launch.BlockText + ");\n" +
                Indent + "  " + T.Kernel + "<" + Steps0 + "><<<" + Launch.GridText + ", " + Block +
                ", 2 * " + generated::TemporalTileCells + Name + "(" + Block + ", " + Steps0 +
                ") * (sizeof(" + Element + ") + 1)>>>(" + Args + ");\n" + Indent + "}";
  } else {
    T.Launch += "\n" + Indent + "  " + T.Kernel + "<" + Steps0 + "><<<" + Launch.GridText + ", " +
                Launch.BlockText + ">>>(" + Args + ");";
  }
  std::optional<FileRange> SwapRange = writtenRange(Ctx, Swap->getSourceRange());
  if (!SwapRange)
    return makeError("the swap comes from a macro");
  T.SwapOffset = SwapRange->Begin;
  T.SwapGuard = "if (!" + Group + " || " + First + ")\n" + Indent + "  ";
  T.Message =
      "fused into '" + T.Kernel + "' (temporal fusion of " + std::to_string(T.Projection.Steps) +
      " steps per launch, " + Macro +
      (Tiles ? "; earlier steps in shared-memory tiles" : "; neighbours recomputed in registers") +
      "; projected " + llvm::formatv("{0:f3}", T.Projection.SecondsPerStep * 1e6).str() +
      " us per step against " + llvm::formatv("{0:f3}", T.Projection.OriginalPerStep * 1e6).str() +
      " us)";
  return T;
}

} // namespace launchopt
