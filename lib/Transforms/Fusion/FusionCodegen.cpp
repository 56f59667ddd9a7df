#include "FusionCodegen.h"

#include "FusionHostCode.h"
#include "FusionOnChip.h"
#include "FusionRecompute.h"
#include "FusionTemporal.h"
#include "FusionTileCaches.h"
#include "Support/GeneratedNames.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/TypeLoc.h"
#include <algorithm>
#include <cstring>
#include <map>
#include <set>

namespace launchopt {

using namespace clang;

namespace {

unsigned offsetOf(const ASTContext &Ctx, SourceLocation Loc) {
  return Ctx.getSourceManager().getFileOffset(Ctx.getSourceManager().getExpansionLoc(Loc));
}

std::string bodyName(const FunctionDecl &K) { return generated::FusedBody + K.getNameAsString(); }

} // namespace

std::optional<std::string> deviceBodyCopy(const ASTContext &Ctx, const FunctionDecl &K,
                                          const std::string &Name, const std::string &ExtraParams,
                                          const std::vector<BodyEdit> &Edits) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (K.getTemplatedKind() != FunctionDecl::TK_NonTemplate || !K.hasBody())
    return std::nullopt;
  SourceLocation TypeBegin = K.getReturnTypeSourceRange().getBegin();
  FunctionTypeLoc FTL = K.getFunctionTypeLoc();
  // The kernel may be in a file the main file includes: its text is read
  // there (never edited) and the copy goes into the main file.
  if (TypeBegin.isMacroID() || !FTL || SM.isInSystemHeader(TypeBegin) ||
      SM.getFileID(TypeBegin) != SM.getFileID(SM.getExpansionLoc(K.getBody()->getEndLoc())))
    return std::nullopt;
  unsigned Begin = offsetOf(Ctx, TypeBegin);
  unsigned NameAt = offsetOf(Ctx, K.getLocation());
  unsigned RParen = offsetOf(Ctx, FTL.getRParenLoc());
  unsigned Brace = offsetOf(Ctx, K.getBody()->getBeginLoc());
  unsigned End = offsetOf(Ctx, K.getBody()->getEndLoc()) + 1;
  llvm::StringRef Text = SM.getBufferData(SM.getFileID(TypeBegin));
  std::string Out = "static __device__ __forceinline__ ";
  Out += Text.substr(Begin, NameAt - Begin);
  Out += Name;
  Out += Text.substr(NameAt + K.getName().size(), RParen - NameAt - K.getName().size());
  Out += K.getNumParams() ? ", " : "";
  // The block and thread index the body copy runs for, which its locals
  // blockIdx and threadIdx shadow the built-ins with, as in every copy.
  const std::string BlockIdx = generated::passedBuiltin("blockIdx");
  const std::string ThreadIdx = generated::passedBuiltin("threadIdx");
  Out += ExtraParams + "const uint3 " + BlockIdx + ", const uint3 " + ThreadIdx;
  Out += Text.substr(RParen, Brace + 1 - RParen);
  Out +=
      "\n  const uint3 blockIdx = " + BlockIdx + ";\n  const uint3 threadIdx = " + ThreadIdx + ";";
  std::optional<std::vector<BodyEdit>> AllEdits = withTileCachesRead(Ctx, K, Edits);
  if (!AllEdits)
    return std::nullopt;
  unsigned At = Brace + 1;
  for (const BodyEdit &E : *AllEdits) {
    if (E.Begin < At || E.End > End)
      return std::nullopt;
    Out += Text.substr(At, E.Begin - At);
    Out += E.Text;
    At = E.End;
  }
  Out += Text.substr(At, End - At);
  return Out + "\n\n";
}

namespace {

// A member computed over its halo layers into shared-memory tiles, as the
// fused kernel calls it.
struct TileProducer {
  std::string Name; // the original kernel
  std::string Call; // up to the tile site, ownership and index arguments
  unsigned Member = 0;
};

// Why a kernel stays alone: a read through an index array of what an
// earlier launch of its segment writes rules fusion with that producer out
// (the report names it); else what the model says of pairing it with the
// kernels it exchanges arrays with; else no fusion was worth it.
std::string singleKernelReason(const FusionProblem &P, const FusionPlan &Plan, unsigned K) {
  for (const ArrayUse &R : P.Kernels[K].Uses)
    for (unsigned J = K; R.Indirect && J-- > 0 && P.Kernels[J].Segment == P.Kernels[K].Segment;)
      if (const ArrayUse *W = P.Kernels[J].use(R.Array); W && W->Writes)
        return "not fused with its producer: " + indirectReadReason(P, K, J, R.Array);
  if (K < Plan.WhyAlone.size() && !Plan.WhyAlone[K].empty())
    return Plan.WhyAlone[K];
  return "no feasible fusion lowers the projected time";
}

// Whether kernel K is the only launch of its segment (a loop body of one
// launch is where temporal fusion looks).
bool aloneInSegment(const FusionProblem &P, unsigned K) {
  for (unsigned J = 0; J < P.Kernels.size(); ++J)
    if (J != K && P.Kernels[J].Segment == P.Kernels[K].Segment)
      return false;
  return true;
}

std::string unsignedLiteral(unsigned V) { return std::to_string(V) + "u"; }

// A local of the tile walk: step s, site x and y, ring step r, column k,
// tile index t.
std::string walkLocal(char Letter) { return generated::TileWalkLocal + std::string(1, Letter); }

// The walk's mapping from its step to the site (x, y), relative to the
// block's first site: the block's own sites first, then the rows below and
// above it, then the columns left and right of it, as far as Sides says.
std::string walkSite(const unsigned Block[3], const RingSides &Sides) {
  auto U = unsignedLiteral;
  const std::string Step = walkLocal('s'), SiteX = walkLocal('x'), SiteY = walkLocal('y');
  const std::string RingStep = walkLocal('r'), Column = walkLocal('k');
  unsigned Bx = Block[0], By = Block[1];
  unsigned Own = Bx * By, RowWidth = Bx + Sides[0] + Sides[1];
  unsigned Rows = Own + (Sides[2] + Sides[3]) * RowWidth, Columns = Sides[0] + Sides[1];
  std::string S = "    unsigned " + SiteX + ", " + SiteY +
                  "; // from the block's first site; the ring wraps below zero\n";
  S += "    if (" + Step + " < " + U(Own) + ") {\n";
  S += "      " + SiteX + " = " + Step + " % " + U(Bx) + ";\n";
  S += "      " + SiteY + " = " + Step + " / " + U(Bx) + ";\n";
  // Rows: those below the block (Sides[2] of them), then those above it.
  std::string Row = RingStep + " / " + U(RowWidth), Below = Row + " - " + U(Sides[2]);
  std::string Above = U(By) + " + " + Row;
  if (Sides[2] && Sides[3])
    Above = U(By) + " + (" + RingStep + " - " + U(Sides[2] * RowWidth) + ") / " + U(RowWidth);
  std::string Both = RingStep + " < " + U(Sides[2] * RowWidth) + " ? " + Below + " : " + Above;
  std::string Y = !Sides[2] ? Above : !Sides[3] ? Below : Both;
  std::string X = RingStep + " % " + U(RowWidth) + (Sides[0] ? " - " + U(Sides[0]) : "");
  if (Sides[2] + Sides[3]) {
    S += "    } else if (" + Step + " < " + U(Rows) + ") { // rows below and above the block\n";
    S += "      const unsigned " + RingStep + " = " + Step + " - " + U(Own) + ";\n";
    S += "      " + SiteX + " = " + X + ";\n";
    S += "      " + SiteY + " = " + Y + ";\n";
  }
  if (Columns) {
    S += "    } else { // columns left and right of the block\n";
    S += "      const unsigned " + RingStep + " = " + Step + " - " + U(Rows) + ";\n";
    S += "      const unsigned " + Column + " = " + RingStep + " % " + U(Columns) + ";\n";
    std::string Left = Column + " - " + U(Sides[0]), Right = U(Bx) + " + " + Left;
    if (!Sides[0])
      Right = U(Bx) + " + " + Column;
    S += "      " + SiteX + " = " +
         (!Sides[0]   ? Right
          : !Sides[1] ? Left
                      : Column + " < " + U(Sides[0]) + " ? " + Left + " : " + Right) +
         ";\n";
    S += "      " + SiteY + " = " + RingStep + " / " + U(Columns) + ";\n";
  }
  return S + "    }\n";
}

// The condition under which a producer that needs only Need of the walk's
// Walked sides runs at a site; empty when it runs everywhere.
std::string producerGuard(const unsigned Block[3], const RingSides &Need, const RingSides &Walked) {
  auto Negated = [](unsigned V) { return V ? "-" + std::to_string(V) : std::string("0"); };
  const std::string SiteX = "(int)" + walkLocal('x'), SiteY = "(int)" + walkLocal('y');
  std::vector<std::string> Bounds;
  if (Need[0] < Walked[0])
    Bounds.push_back(SiteX + " >= " + Negated(Need[0]));
  if (Need[1] < Walked[1])
    Bounds.push_back(SiteX + " < " + std::to_string(Block[0] + Need[1]));
  if (Need[2] < Walked[2])
    Bounds.push_back(SiteY + " >= " + Negated(Need[2]));
  if (Need[3] < Walked[3])
    Bounds.push_back(SiteY + " < " + std::to_string(Block[1] + Need[3]));
  std::string Guard;
  for (const std::string &B : Bounds)
    Guard += (Guard.empty() ? "" : " && ") + B;
  return Guard;
}

// Producers computed over R halo layers into shared-memory tiles (paper
// §II-D2, Fig. 3 Kern_X), in one walk of the tile (laid out as the block plus
// R layers along each axis wider than one): consecutive producers with no
// barrier between them read nothing of each other at a neighbour, so each
// site can run them all, and their loads are in flight together. A thread
// first takes its own site, so the first pass is as coalesced as the unfused
// kernels; the ring is walked only as far as later members read it
// (OnChipPlan::RingNeeded), and each producer runs only where its own results
// are read. Each tile site's written flag is cleared before the bodies run
// there; own sites also go to GMEM.
std::string tileProducerLoop(const std::vector<TileProducer> &Producers, unsigned R,
                             const OnChipPlan &OnChip) {
  auto U = unsignedLiteral;
  const std::string Step = walkLocal('s'), SiteX = walkLocal('x'), SiteY = walkLocal('y');
  const std::string TileIndex = walkLocal('t');
  const unsigned *Block = OnChip.Block;
  unsigned Rx = Block[0] > 1 ? R : 0, Ry = Block[1] > 1 ? R : 0;
  RingSides Walked = {0, 0, 0, 0};
  std::string Names;
  for (const TileProducer &T : Producers) {
    for (unsigned K = 0; K < 4; ++K)
      Walked[K] = std::max(Walked[K], OnChip.RingNeeded[T.Member][K]);
    Names += (Names.empty() ? "" : ", ") + T.Name;
  }
  unsigned Own = Block[0] * Block[1];
  unsigned Steps = Own + (Walked[2] + Walked[3]) * (Block[0] + Walked[0] + Walked[1]) +
                   Block[1] * (Walked[0] + Walked[1]);
  auto N = [](unsigned V) { return std::to_string(V); };
  std::string S = "  // " + Names + " over " + N(R) +
                  " halo layer(s) into shared memory: read at neighbours below.\n"
                  "  // Own sites first, then the ring layers read below (x -" +
                  N(Walked[0]) + " +" + N(Walked[1]) + ", y -" + N(Walked[2]) + " +" +
                  N(Walked[3]) + ").\n";
  S += "  for (unsigned " + Step + " = threadIdx.y * blockDim.x + threadIdx.x; " + Step + " < " +
       U(Steps) + "; " + Step + " += blockDim.x * blockDim.y) {\n";
  S += walkSite(Block, Walked);
  S += "    const unsigned " + TileIndex + " = (" + SiteY + " + " + U(Ry) + ") * " +
       U(Block[0] + 2 * Rx) + " + " + SiteX + " + " + U(Rx) + ";\n";
  for (const TileProducer &T : Producers)
    for (const std::string &Tile : OnChip.TilesWritten[T.Member])
      S += "    " + std::string(generated::OnChipTileSet) + Tile + "[" + TileIndex + "] = 0;\n";
  // A ring site beyond the grid's edge is not run (its flag stays clear, so
  // readers take GMEM as the unfused program did): a producer without a
  // guard of its own would read past its arrays there.
  std::string InGrid;
  if (Walked[0] + Walked[1])
    InGrid = "blockIdx.x * blockDim.x + " + SiteX + " < gridDim.x * blockDim.x";
  if (Walked[2] + Walked[3])
    InGrid += (InGrid.empty() ? "" : " && ") + std::string("blockIdx.y * blockDim.y + ") + SiteY +
              " < gridDim.y * blockDim.y";
  for (const TileProducer &T : Producers) {
    std::string Guard = producerGuard(Block, OnChip.RingNeeded[T.Member], Walked);
    if (!InGrid.empty())
      Guard = Guard.empty() ? InGrid : "(" + Guard + ") && " + InGrid;
    S += "    " + (Guard.empty() ? "" : "if (" + Guard + ")\n      ") + T.Call + TileIndex + ", " +
         Step + " < " + U(Own) + ", blockIdx, make_uint3(" + SiteX + ", " + SiteY + ", 0));\n";
  }
  return S + "  }\n";
}

// The condition under which a neighbour site (Dx, Dy) of the thread's own
// is one the launch's grid runs: a producer without a guard of its own would
// read past its arrays beyond the grid's edge.
std::string inGrid(long long Dx, long long Dy) {
  std::vector<std::string> Bounds;
  auto Axis = [&](const char *A, long long D) {
    std::string X = std::string(A);
    std::string Global = "blockIdx." + X + " * blockDim." + X + " + threadIdx." + X;
    if (D > 0)
      Bounds.push_back(Global + " + " + std::to_string(D) + "u < gridDim." + X + " * blockDim." +
                       X);
    if (D < 0)
      Bounds.push_back(Global + " >= " + std::to_string(-D) + "u");
  };
  Axis("x", Dx);
  Axis("y", Dy);
  std::string Out;
  for (const std::string &B : Bounds)
    Out += (Out.empty() ? "" : " && ") + B;
  return Out;
}

// A producer recomputed at the neighbour sites later members read it at
// (OnChipPath::Recomputed): one call per site, its own first, each into the
// registers of that site; a neighbour outside the grid keeps its register
// unset, so readers take GMEM there as the unfused program did.
std::string recomputedCalls(const std::string &Name, const std::string &Call,
                            const std::vector<SiteOffset> &Sites,
                            const std::vector<std::string> &Arrays) {
  auto Shifted = [](const char *Axis, long long D) {
    std::string Index = std::string("threadIdx.") + Axis;
    return D ? Index + (D > 0 ? " + " : " - ") + std::to_string(std::llabs(D)) + "u" : Index;
  };
  std::string Where;
  for (const SiteOffset &S : Sites)
    if (S.X || S.Y)
      Where += " (" + std::to_string(S.X) + ", " + std::to_string(S.Y) + ")";
  std::string Code = "  // " + Name + " at the thread's site, then recomputed at the neighbours " +
                     "read below:" + Where + ".\n";
  for (const SiteOffset &S : Sites) {
    bool Own = !S.X && !S.Y;
    Code += Own ? "  " : "  if (" + inGrid(S.X, S.Y) + ")\n    ";
    Code += Call;
    for (const std::string &A : Arrays)
      Code += recomputedRegister(A, S) + ", " + recomputedFlag(A, S) + ", ";
    Code +=
        std::string(Own ? "true" : "false") + ", blockIdx, " +
        (Own ? std::string("threadIdx")
             : "make_uint3(" + Shifted("x", S.X) + ", " + Shifted("y", S.Y) + ", threadIdx.z)") +
        ");\n";
  }
  return Code;
}

// The renamed buffers of launch K's arguments (argument -> buffer), or null.
const std::map<unsigned, std::string> *renamedBuffers(const FusionCodegenOptions &Options,
                                                      unsigned K) {
  return Options.Renaming ? &Options.Renaming->ArgumentBuffer[K] : nullptr;
}

// The buffer an argument of launch K gets: "" for its own text, or a renamed one.
std::string bufferOf(const FusionCodegenOptions &Options, unsigned K, unsigned A) {
  const std::map<unsigned, std::string> *B = renamedBuffers(Options, K);
  auto It = B ? B->find(A) : std::map<unsigned, std::string>::const_iterator();
  return B && It != B->end() ? It->second : "";
}

// Where new kernel N keeps its shared arrays. On-chip paths follow an
// allocation, not a version: an array whose versions meet in one new kernel
// keeps the GMEM path.
OnChipPlan onChipPlanFor(const ASTContext &Ctx, const FusionExtraction &X,
                         const NewKernelProjection &N, const FusionCodegenOptions &Options) {
  if (!Options.OnChip)
    return OnChipPlan(N.Members.size(), "the GMEM path was asked for");
  std::map<int, std::set<std::string>> VersionsHere;
  for (unsigned M : N.Members)
    for (unsigned A = 0; A < X.Launches[M].ArgumentAllocation.size(); ++A)
      if (X.Launches[M].ArgumentAllocation[A] >= 0)
        VersionsHere[X.Launches[M].ArgumentAllocation[A]].insert(bufferOf(Options, M, A));
  std::map<unsigned, std::string> KeepGlobal;
  for (const auto &[Alloc, Versions] : VersionsHere)
    if (Versions.size() > 1)
      KeepGlobal[Alloc] = "two versions of a renamed array";
  return planOnChipMemory(Ctx, X, N, KeepGlobal, Options.MaxRecomputedNeighbours);
}

// Complex fusion (§II-D2): member I waits for every value it reads from
// another thread of the block.
bool needsBarrier(const FusionProblem &P, const NewKernelProjection &N, const OnChipPlan &OnChip,
                  unsigned I) {
  bool Barrier = false;
  for (unsigned J = 0; J < I; ++J)
    for (const ArrayUse &W : P.Kernels[N.Members[J]].Uses)
      if (W.Writes && OnChip.pathOf(W.Array) != OnChipPath::Recomputed)
        if (const ArrayUse *R = P.Kernels[N.Members[I]].use(W.Array))
          Barrier |= R->Reads && (R->HaloRadius > 0 || N.MemberHalo[J] > 0);
  return Barrier;
}

// A member that runs over R halo layers because later members read its
// results at neighbours: its call (ending in the arguments before the
// indices) for every site of the widened block.
std::string haloLoop(const std::string &Name, const std::string &Call, unsigned R) {
  std::string Radius = std::to_string(R);
  // The loop's locals: per axis the halo layers and the widened extent, and
  // the step.
  auto Local = [](const char *Name) { return generated::Prefix + std::string(Name); };
  const std::string Rx = Local("rx"), Ry = Local("ry"), Rz = Local("rz");
  const std::string Wx = Local("wx"), Wy = Local("wy"), Wz = Local("wz"), Step = Local("s");
  std::string S = "  {\n";
  S += "    // " + Name + " over " + Radius +
       " halo layer(s): its results are read at neighbours below.\n";
  S += "    const unsigned " + Rx + " = blockDim.x > 1 ? " + Radius + " : 0, " + Ry +
       " = blockDim.y > 1 ? " + Radius + " : 0, " + Rz + " = blockDim.z > 1 ? " + Radius +
       " : 0;\n";
  S += "    const unsigned " + Wx + " = blockDim.x + 2 * " + Rx + ", " + Wy +
       " = blockDim.y + 2 * " + Ry + ",\n";
  S += "                   " + Wz + " = blockDim.z + 2 * " + Rz + ";\n";
  S += "    for (unsigned " + Step +
       " = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;\n";
  S += "         " + Step + " < " + Wx + " * " + Wy + " * " + Wz + "; " + Step +
       " += blockDim.x * blockDim.y * blockDim.z)\n";
  S += "      " + Call + "blockIdx, make_uint3(" + Step + " % " + Wx + " - " + Rx + ", " + Step +
       " / " + Wx + " % " + Wy + " - " + Ry + ",\n";
  S += "                     " + Step + " / (" + Wx + " * " + Wy + ") - " + Rz + "));\n";
  return S + "  }\n";
}

// The new kernel's parameters and its launch's arguments: one pointer per
// array (per renamed version) that the members using it share, and each
// member's other parameters under names of its own.
struct FusedParameters {
  std::string Params, Args;
  std::map<std::pair<int, std::string>, std::string> AllocationParam; // (array, buffer) -> name
};

const char *separator(const std::string &List) { return List.empty() ? "" : ", "; }

// What member I passes to its body copy; its parameters join Out.
std::vector<std::string> bindMemberArguments(const ASTContext &Ctx, const FusionExtraction &X,
                                             const NewKernelProjection &N,
                                             const FusionCodegenOptions &Options, unsigned I,
                                             FusedParameters &Out) {
  const FusionProblem &P = X.Problem;
  const ExtractedLaunch &L = X.Launches[N.Members[I]];
  const FunctionDecl &K = *L.Site->Child;
  std::vector<std::string> CallArgs;
  for (unsigned A = 0; A < K.getNumParams(); ++A) {
    const ParmVarDecl *PD = K.getParamDecl(A);
    int Alloc = A < L.ArgumentAllocation.size() ? L.ArgumentAllocation[A] : -1;
    if (Alloc >= 0) {
      std::string Buffer = bufferOf(Options, N.Members[I], A);
      auto [It, Fresh] = Out.AllocationParam.try_emplace(
          {Alloc, Buffer},
          Buffer.empty() ? generated::FusedArrayParam + P.Arrays[Alloc].Name : Buffer);
      if (Fresh) {
        bool Written = false;
        // Every use: a launch may pass the array to several parameters.
        for (unsigned M : N.Members)
          for (const ArrayUse &U : P.Kernels[M].Uses)
            Written |= U.Array == unsigned(Alloc) && U.Writes;
        QualType Element = PD->getType()->getPointeeType().getUnqualifiedType();
        Out.Params += separator(Out.Params) + std::string(Written ? "" : "const ") +
                      Element.getAsString(Ctx.getPrintingPolicy()) + " *" + It->second;
        Out.Args += separator(Out.Args) + (Buffer.empty() ? L.ArgumentText[A] : Buffer);
      }
      CallArgs.push_back(It->second);
      continue;
    }
    std::string Name =
        generated::FusedMemberParam + std::to_string(I) + "_" + PD->getNameAsString();
    Out.Params +=
        separator(Out.Params) + PD->getType().getAsString(Ctx.getPrintingPolicy()) + " " + Name;
    Out.Args += separator(Out.Args) + L.ArgumentText[A];
    CallArgs.push_back(Name);
  }
  return CallArgs;
}

// The __device__ copies of the members' bodies (Body: each member's copy),
// specialised for this kernel where the on-chip plan edits them; a copy
// without edits serves every new kernel (Copied). False when a body cannot
// be copied.
bool copyMemberBodies(const ASTContext &Ctx, const FusionExtraction &X,
                      const NewKernelProjection &N, const OnChipPlan &OnChip,
                      const std::string &Kernel, std::set<const FunctionDecl *> &Copied,
                      std::string &Device, std::vector<std::string> &Body) {
  bool Copyable = true;
  for (unsigned I = 0; I < N.Members.size(); ++I) {
    const FunctionDecl *K = X.Launches[N.Members[I]].Site->Child;
    bool Specialised = !OnChip.Edits[I].empty() || !OnChip.ExtraParams[I].empty();
    Body[I] =
        bodyName(*K) + (Specialised ? "_in_" + Kernel.substr(std::strlen(generated::Prefix)) : "");
    if (!Specialised && Copied.count(K))
      continue;
    std::optional<std::string> Copy =
        deviceBodyCopy(Ctx, *K, Body[I], OnChip.ExtraParams[I], OnChip.Edits[I]);
    Copyable &= Copy.has_value();
    if (Copy)
      Device += *Copy;
    if (Copy && !Specialised)
      Copied.insert(K);
  }
  return Copyable;
}

} // namespace

PassResult generateFusedSource(ASTContext &Ctx, const FusionExtraction &X, const FusionPlan &Plan,
                               const FusionCodegenOptions &Options,
                               std::vector<std::string> &OnChipSummary) {
  PassResult Result;
  const FusionProblem &P = X.Problem;
  std::string Device, Timing;
  std::set<const FunctionDecl *> Copied;
  std::vector<std::string> Launch(Plan.NewKernels.size()), Names(Plan.NewKernels.size());
  std::vector<std::string> Message(P.Kernels.size());
  std::vector<std::string> &Summary = OnChipSummary;
  Summary.assign(Plan.NewKernels.size(), "");
  unsigned Fused = 0, Temporal = 0;
  std::set<std::string> TemporalEmitted;

  for (unsigned F = 0; F < Plan.NewKernels.size(); ++F) {
    const NewKernelProjection &N = Plan.NewKernels[F];
    const ExtractedLaunch &First = X.Launches[N.Members.front()];
    for (unsigned M : N.Members)
      Names[F] += (Names[F].empty() ? "" : "+") + P.Kernels[M].Name;
    if (N.Members.size() == 1) {
      unsigned M = N.Members.front();
      Launch[F] = launchText(Ctx, First, renamedBuffers(Options, M));
      Message[M] = singleKernelReason(P, Plan, M);
      if (Options.Temporal && Options.Gpu && aloneInSegment(P, M)) {
        llvm::Expected<TemporalFusion> T =
            fuseOverTime(Ctx, X, M, Options.TemporalSteps, Options.MaxTemporalSteps,
                         Options.TemporalTiles, *Options.Gpu, Temporal, TemporalEmitted);
        if (!T) {
          std::string Why = llvm::toString(T.takeError());
          if (!Why.empty())
            Message[M] += "; not fused over time: " + Why;
          continue;
        }
        ++Temporal;
        Device += T->Device;
        Launch[F] = T->Launch;
        Names[F] += "*" + std::to_string(T->Projection.Steps);
        Message[M] = T->Message;
        Result.Edits.insert(T->SwapOffset, T->SwapGuard);
      }
      continue;
    }
    std::string Kernel = generated::FusedKernel + std::to_string(Fused);
    OnChipPlan OnChip = onChipPlanFor(Ctx, X, N, Options);
    std::vector<std::string> Body(N.Members.size());
    if (!copyMemberBodies(Ctx, X, N, OnChip, Kernel, Copied, Device, Body)) {
      std::string Kept;
      for (unsigned M : N.Members) {
        Kept += launchText(Ctx, X.Launches[M], renamedBuffers(Options, M)) + "\n  ";
        Message[M] = "a member kernel is a template or comes from a macro";
      }
      Launch[F] = Kept;
      continue;
    }

    ++Fused;
    FusedParameters Parameters;
    std::string Code = OnChip.Declarations;
    // Tile producers not emitted yet: consecutive ones share one walk.
    std::vector<TileProducer> Pending;
    unsigned PendingRadius = 0;
    auto FlushTileProducers = [&] {
      Code += tileProducerLoop(Pending, PendingRadius, OnChip);
      Pending.clear();
    };
    for (unsigned I = 0; I < N.Members.size(); ++I) {
      std::vector<std::string> CallArgs = bindMemberArguments(Ctx, X, N, Options, I, Parameters);
      bool Barrier = needsBarrier(P, N, OnChip, I);
      std::string Call = Body[I] + "(";
      for (const std::string &A : CallArgs)
        Call += A + ", ";
      Call += OnChip.ExtraArgs[I];
      unsigned R = N.MemberHalo[I];
      bool WritesTiles = R && !OnChip.TilesWritten[I].empty();
      if (!Pending.empty() && (Barrier || !WritesTiles || R != PendingRadius))
        FlushTileProducers();
      if (Barrier)
        Code += "  __syncthreads();\n";
      if (WritesTiles) {
        Pending.push_back({P.Kernels[N.Members[I]].Name, Call, I});
        PendingRadius = R;
        continue;
      }
      if (!OnChip.RecomputeSites[I].empty()) {
        Code += recomputedCalls(P.Kernels[N.Members[I]].Name, Call, OnChip.RecomputeSites[I],
                                OnChip.Recomputed[I]);
        continue;
      }
      if (!R) {
        Code += "  " + Call + "blockIdx, threadIdx);\n";
        continue;
      }
      Code += haloLoop(P.Kernels[N.Members[I]].Name, Call, R);
    }
    if (!Pending.empty())
      FlushTileProducers();
    Summary[F] = OnChip.summary();
    Device += "// " + std::string(N.Complex ? "Complex" : "Simple") + " fusion of " + Names[F] +
              " (launchopt fuse).\n// On chip: " + Summary[F] + ".\n__global__ void " + Kernel +
              "(" + Parameters.Params + ") {\n" + Code + "}\n\n";
    Launch[F] =
        Kernel + "<<<" + First.GridText + ", " + First.BlockText + ">>>(" + Parameters.Args + ");";
    for (unsigned M : N.Members)
      Message[M] = "fused into '" + Kernel + "' (" + (N.Complex ? "complex" : "simple") +
                   " fusion of " + Names[F] + "; " + Summary[F] + ")";
  }

  if (Options.TimingHooks)
    Timing = addTimingHooks(Names, Launch);

  replaceLaunchSequence(Ctx, X, Plan, Options, Launch, Result.Edits);
  std::optional<FileRange> HostRange = writtenRange(Ctx, X.Host->getSourceRange());
  if (HostRange && (!Device.empty() || !Timing.empty()))
    Result.Edits.insert(HostRange->Begin, Timing + Device);
  if (Options.Renaming && !Options.Renaming->Segments.empty())
    Result.Edits.insert(0, "#include <launchopt/renaming.cuh>\n");

  Result.Remarks = fusionRemarks(X, Message, Options);
  return Result;
}

} // namespace launchopt
