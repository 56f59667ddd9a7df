#include "FusionCodegen.h"

#include "FusionOnChip.h"
#include "FusionRecompute.h"
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

std::string bodyName(const FunctionDecl &K) { return "__lo_body_" + K.getNameAsString(); }

// The kernel's text as a __device__ function that runs one thread's work
// for a given block and thread index (shadowing the built-ins), with extra
// parameters before the indices and the on-chip edits applied to the body.
std::optional<std::string> deviceBodyCopy(const ASTContext &Ctx, const FunctionDecl &K,
                                          const std::string &Name, const std::string &ExtraParams,
                                          const std::vector<BodyEdit> &Edits) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (K.getTemplatedKind() != FunctionDecl::TK_NonTemplate || !K.hasBody())
    return std::nullopt;
  SourceLocation TypeBegin = K.getReturnTypeSourceRange().getBegin();
  FunctionTypeLoc FTL = K.getFunctionTypeLoc();
  if (TypeBegin.isMacroID() || !FTL || !SM.isWrittenInMainFile(TypeBegin))
    return std::nullopt;
  unsigned Begin = offsetOf(Ctx, TypeBegin);
  unsigned NameAt = offsetOf(Ctx, K.getLocation());
  unsigned RParen = offsetOf(Ctx, FTL.getRParenLoc());
  unsigned Brace = offsetOf(Ctx, K.getBody()->getBeginLoc());
  unsigned End = offsetOf(Ctx, K.getBody()->getEndLoc()) + 1;
  llvm::StringRef Text = SM.getBufferData(SM.getMainFileID());
  std::string Out = "static __device__ __forceinline__ ";
  Out += Text.substr(Begin, NameAt - Begin);
  Out += Name;
  Out += Text.substr(NameAt + K.getName().size(), RParen - NameAt - K.getName().size());
  Out += K.getNumParams() ? ", " : "";
  Out += ExtraParams + "const uint3 __lo_blockIdx, const uint3 __lo_threadIdx";
  Out += Text.substr(RParen, Brace + 1 - RParen);
  Out += "\n  const uint3 blockIdx = __lo_blockIdx;\n  const uint3 threadIdx = __lo_threadIdx;";
  unsigned At = Brace + 1;
  for (const BodyEdit &E : Edits) {
    if (E.Begin < At || E.End > End)
      return std::nullopt;
    Out += Text.substr(At, E.Begin - At);
    Out += E.Text;
    At = E.End;
  }
  Out += Text.substr(At, End - At);
  return Out + "\n\n";
}

std::string argumentText(const ASTContext &Ctx, const Expr *E) {
  std::optional<FileRange> R = spelledRange(Ctx, E->getSourceRange());
  return R ? textOf(Ctx, *R) : std::string();
}

// A member computed over its halo layers into shared-memory tiles, as the
// fused kernel calls it.
struct TileProducer {
  std::string Name; // the original kernel
  std::string Call; // up to the tile site, ownership and index arguments
  unsigned Member = 0;
};

std::string unsignedLiteral(unsigned V) { return std::to_string(V) + "u"; }

// The walk's mapping from step __lo__s to the site (__lo__x, __lo__y), relative
// to the block's first site: the block's own sites first, then the rows below
// and above it, then the columns left and right of it, as far as Sides says.
std::string walkSite(const unsigned Block[3], const RingSides &Sides) {
  auto U = unsignedLiteral;
  unsigned Bx = Block[0], By = Block[1];
  unsigned Own = Bx * By, RowWidth = Bx + Sides[0] + Sides[1];
  unsigned Rows = Own + (Sides[2] + Sides[3]) * RowWidth, Columns = Sides[0] + Sides[1];
  std::string S = "    unsigned __lo__x, __lo__y; // from the block's first site; "
                  "the ring wraps below zero\n"
                  "    if (__lo__s < " + U(Own) + ") {\n"
                  "      __lo__x = __lo__s % " + U(Bx) + ";\n"
                  "      __lo__y = __lo__s / " + U(Bx) + ";\n";
  // Rows: those below the block (Sides[2] of them), then those above it.
  std::string Row = "__lo__r / " + U(RowWidth), Below = Row + " - " + U(Sides[2]);
  std::string Above = U(By) + " + " + Row;
  if (Sides[2] && Sides[3])
    Above = U(By) + " + (__lo__r - " + U(Sides[2] * RowWidth) + ") / " + U(RowWidth);
  std::string Y = !Sides[2]   ? Above
                  : !Sides[3] ? Below
                              : "__lo__r < " + U(Sides[2] * RowWidth) + " ? " + Below + " : " + Above;
  std::string X = "__lo__r % " + U(RowWidth) + (Sides[0] ? " - " + U(Sides[0]) : "");
  if (Sides[2] + Sides[3])
    S += "    } else if (__lo__s < " + U(Rows) + ") { // rows below and above the block\n"
         "      const unsigned __lo__r = __lo__s - " + U(Own) + ";\n"
         "      __lo__x = " + X + ";\n"
         "      __lo__y = " + Y + ";\n";
  if (Columns)
    S += "    } else { // columns left and right of the block\n"
         "      const unsigned __lo__r = __lo__s - " + U(Rows) + ";\n"
         "      const unsigned __lo__k = __lo__r % " + U(Columns) + ";\n"
         "      __lo__x = __lo__k < " + U(Sides[0]) + " ? __lo__k - " + U(Sides[0]) + " : " +
         U(Bx) + " + __lo__k - " + U(Sides[0]) + ";\n"
         "      __lo__y = __lo__r / " + U(Columns) + ";\n";
  return S + "    }\n";
}

// The condition under which a producer that needs only Need of the walk's
// Walked sides runs at a site; empty when it runs everywhere.
std::string producerGuard(const unsigned Block[3], const RingSides &Need, const RingSides &Walked) {
  auto Negated = [](unsigned V) { return V ? "-" + std::to_string(V) : std::string("0"); };
  std::vector<std::string> Bounds;
  if (Need[0] < Walked[0])
    Bounds.push_back("(int)__lo__x >= " + Negated(Need[0]));
  if (Need[1] < Walked[1])
    Bounds.push_back("(int)__lo__x < " + std::to_string(Block[0] + Need[1]));
  if (Need[2] < Walked[2])
    Bounds.push_back("(int)__lo__y >= " + Negated(Need[2]));
  if (Need[3] < Walked[3])
    Bounds.push_back("(int)__lo__y < " + std::to_string(Block[1] + Need[3]));
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
// there; own sites also go to GMEM. (The walk's locals are named __lo__*: the
// kernel's array parameters are __lo_<array>.)
std::string tileProducerLoop(const std::vector<TileProducer> &Producers, unsigned R,
                             const OnChipPlan &OnChip) {
  auto U = unsignedLiteral;
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
                  "  // Own sites first, then the ring layers read below (x -" + N(Walked[0]) +
                  " +" + N(Walked[1]) + ", y -" + N(Walked[2]) + " +" + N(Walked[3]) + ").\n"
                  "  for (unsigned __lo__s = threadIdx.y * blockDim.x + threadIdx.x; __lo__s < " +
                  U(Steps) + "; __lo__s += blockDim.x * blockDim.y) {\n";
  S += walkSite(Block, Walked);
  S += "    const unsigned __lo__t = (__lo__y + " + U(Ry) + ") * " + U(Block[0] + 2 * Rx) +
       " + __lo__x + " + U(Rx) + ";\n";
  for (const TileProducer &T : Producers)
    for (const std::string &Tile : OnChip.TilesWritten[T.Member])
      S += "    __lo_set_" + Tile + "[__lo__t] = 0;\n";
  for (const TileProducer &T : Producers) {
    std::string Guard = producerGuard(Block, OnChip.RingNeeded[T.Member], Walked);
    S += "    " + (Guard.empty() ? "" : "if (" + Guard + ")\n      ") + T.Call +
         "__lo__t, __lo__s < " + U(Own) + ", blockIdx, make_uint3(__lo__x, __lo__y, 0));\n";
  }
  return S + "  }\n";
}

// A producer recomputed at the neighbour sites later members read it at
// (OnChipPath::Recomputed): one call per site, its own first, each into the
// registers of that site.
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
    Code += "  " + Call;
    for (const std::string &A : Arrays)
      Code += recomputedRegister(A, S) + ", " + recomputedFlag(A, S) + ", ";
    Code += std::string(Own ? "true" : "false") + ", blockIdx, " +
            (Own ? std::string("threadIdx")
                 : "make_uint3(" + Shifted("x", S.X) + ", " + Shifted("y", S.Y) +
                       ", threadIdx.z)") +
            ");\n";
  }
  return Code;
}

// The launch statement as written, with the arguments that get a renamed
// buffer replaced.
std::string launchText(const ASTContext &Ctx, const ExtractedLaunch &L,
                       const std::map<unsigned, std::string> *Buffers) {
  if (!Buffers || Buffers->empty())
    return textOf(Ctx, L.Statement);
  std::string Out;
  unsigned At = L.Statement.Begin;
  for (const auto &[Argument, Buffer] : *Buffers) {
    std::optional<FileRange> R = spelledRange(Ctx, L.Site->Arguments[Argument]->getSourceRange());
    Out += textOf(Ctx, FileRange{At, R->Begin}) + Buffer;
    At = R->End;
  }
  return Out + textOf(Ctx, FileRange{At, L.Statement.End});
}

// The renamed buffers of one segment around its new launches (paper §II-B1
// c): each version but the last gets a copy of the user's allocation, and the
// original launches run when a buffer cannot be had.
std::string renamedSequence(const FusionProblem &P, const SegmentRenaming &S,
                            const std::string &Launches, const std::string &Original,
                            unsigned Segment) {
  unsigned Buffers = 0;
  for (const SegmentRenaming::Array &A : S.Arrays)
    Buffers += A.LastVersion - A.FirstVersion;
  std::string Set = "__lo_renamed_" + std::to_string(Segment);
  std::string Out = "{\n    // launchopt fuse: renamed buffers of expandable arrays.\n"
                    "    launchopt::RenamedArrays<" + std::to_string(Buffers) + "> " + Set +
                    "(" + S.Stream + ");\n";
  for (const SegmentRenaming::Array &A : S.Arrays)
    for (unsigned V = A.FirstVersion; V < A.LastVersion; ++V)
      Out += "    auto *const " + renamedBufferName(P.Arrays[A.Allocation].Name, V) + " = " +
             Set + ".rename(" + A.User + ");\n";
  // The launches move two levels in.
  auto Indent = [](const std::string &Text) {
    std::string Out;
    for (char C : Text)
      Out += C == '\n' ? std::string("\n    ") : std::string(1, C);
    return Out;
  };
  Out += "    if (" + Set + ".ok()) {\n      " + Indent(Launches) + "\n";
  Out += "    } else {\n      " + Indent(Original) + "\n    }\n  }";
  return Out;
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
  unsigned Fused = 0;
  auto Buffers = [&](unsigned K) -> const std::map<unsigned, std::string> * {
    return Options.Renaming ? &Options.Renaming->ArgumentBuffer[K] : nullptr;
  };
  // The buffer an argument of launch K gets: its own text, or a renamed one.
  auto BufferOf = [&](unsigned K, unsigned A) -> std::string {
    const std::map<unsigned, std::string> *B = Buffers(K);
    auto It = B ? B->find(A) : std::map<unsigned, std::string>::const_iterator();
    return B && It != B->end() ? It->second : "";
  };

  for (unsigned F = 0; F < Plan.NewKernels.size(); ++F) {
    const NewKernelProjection &N = Plan.NewKernels[F];
    const ExtractedLaunch &First = X.Launches[N.Members.front()];
    for (unsigned M : N.Members)
      Names[F] += (Names[F].empty() ? "" : "+") + P.Kernels[M].Name;
    if (N.Members.size() == 1) {
      Launch[F] = launchText(Ctx, First, Buffers(N.Members.front()));
      Message[N.Members.front()] = "no feasible fusion lowers the projected time";
      continue;
    }
    std::string Kernel = "__lo_fused_" + std::to_string(Fused);
    // On-chip paths follow an allocation, not a version: an array whose
    // versions meet in one new kernel keeps the GMEM path.
    std::map<int, std::set<std::string>> VersionsHere;
    for (unsigned M : N.Members)
      for (unsigned A = 0; A < X.Launches[M].ArgumentAllocation.size(); ++A)
        if (X.Launches[M].ArgumentAllocation[A] >= 0)
          VersionsHere[X.Launches[M].ArgumentAllocation[A]].insert(BufferOf(M, A));
    std::map<unsigned, std::string> KeepGlobal;
    for (const auto &[Alloc, Versions] : VersionsHere)
      if (Versions.size() > 1)
        KeepGlobal[Alloc] = "two versions of a renamed array";
    OnChipPlan OnChip =
        planOnChipMemory(Ctx, X, N, KeepGlobal, Options.MaxRecomputedNeighbours);
    if (!Options.OnChip)
      OnChip = OnChipPlan(N.Members.size(), "the GMEM path was asked for");
    std::vector<std::string> Body(N.Members.size());
    bool Copyable = true;
    for (unsigned I = 0; I < N.Members.size(); ++I) {
      const FunctionDecl *K = X.Launches[N.Members[I]].Site->Child;
      bool Specialised = !OnChip.Edits[I].empty() || !OnChip.ExtraParams[I].empty();
      Body[I] = bodyName(*K) + (Specialised ? "_in_" + Kernel.substr(5) : "");
      if (!Specialised && Copied.count(K))
        continue;
      std::optional<std::string> Copy = deviceBodyCopy(Ctx, *K, Body[I], OnChip.ExtraParams[I],
                                                       OnChip.Edits[I]);
      Copyable &= Copy.has_value();
      if (Copy)
        Device += *Copy;
      if (Copy && !Specialised)
        Copied.insert(K);
    }
    if (!Copyable) {
      std::string Kept;
      for (unsigned M : N.Members) {
        Kept += launchText(Ctx, X.Launches[M], Buffers(M)) + "\n  ";
        Message[M] = "a member kernel is a template or comes from a macro";
      }
      Launch[F] = Kept;
      continue;
    }

    ++Fused;
    std::string Params, Args, Code = OnChip.Declarations;
    std::map<std::pair<int, std::string>, std::string> AllocationParam;
    auto Separator = [](std::string &S) { return S.empty() ? "" : ", "; };
    // Tile producers not emitted yet: consecutive ones share one walk.
    std::vector<TileProducer> Pending;
    unsigned PendingRadius = 0;
    auto FlushTileProducers = [&] {
      Code += tileProducerLoop(Pending, PendingRadius, OnChip);
      Pending.clear();
    };
    for (unsigned I = 0; I < N.Members.size(); ++I) {
      const ExtractedLaunch &L = X.Launches[N.Members[I]];
      const FunctionDecl &K = *L.Site->Child;
      std::vector<std::string> CallArgs;
      for (unsigned A = 0; A < K.getNumParams(); ++A) {
        const ParmVarDecl *PD = K.getParamDecl(A);
        int Alloc = A < L.ArgumentAllocation.size() ? L.ArgumentAllocation[A] : -1;
        if (Alloc >= 0) {
          std::string Buffer = BufferOf(N.Members[I], A);
          auto [It, Fresh] = AllocationParam.try_emplace(
              {Alloc, Buffer}, Buffer.empty() ? "__lo_" + P.Arrays[Alloc].Name : Buffer);
          if (Fresh) {
            bool Written = false;
            // Every use: a launch may pass the array to several parameters.
            for (unsigned M : N.Members)
              for (const ArrayUse &U : P.Kernels[M].Uses)
                Written |= U.Array == unsigned(Alloc) && U.Writes;
            QualType Element = PD->getType()->getPointeeType().getUnqualifiedType();
            Params += Separator(Params) + std::string(Written ? "" : "const ") +
                      Element.getAsString(Ctx.getPrintingPolicy()) + " *" + It->second;
            Args += Separator(Args) +
                    (Buffer.empty() ? argumentText(Ctx, L.Site->Arguments[A]) : Buffer);
          }
          CallArgs.push_back(It->second);
          continue;
        }
        std::string Name = "__lo_m" + std::to_string(I) + "_" + PD->getNameAsString();
        Params += Separator(Params) +
                  PD->getType().getAsString(Ctx.getPrintingPolicy()) + " " + Name;
        Args += Separator(Args) + argumentText(Ctx, L.Site->Arguments[A]);
        CallArgs.push_back(Name);
      }
      // Complex fusion (§II-D2): wait for every value this member reads
      // from another thread of the block.
      bool Barrier = false;
      for (unsigned J = 0; J < I; ++J)
        for (const ArrayUse &W : P.Kernels[N.Members[J]].Uses)
          if (W.Writes && OnChip.pathOf(W.Array) != OnChipPath::Recomputed)
            if (const ArrayUse *R = P.Kernels[N.Members[I]].use(W.Array))
              Barrier |= R->Reads && (R->HaloRadius > 0 || N.MemberHalo[J] > 0);
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
      std::string Radius = std::to_string(R);
      Code += "  {\n"
              "    // " + P.Kernels[N.Members[I]].Name + " over " + Radius +
              " halo layer(s): its results are read at neighbours below.\n"
              "    const unsigned __lo_rx = blockDim.x > 1 ? " + Radius + " : 0, __lo_ry = blockDim.y > 1 ? " +
              Radius + " : 0, __lo_rz = blockDim.z > 1 ? " + Radius + " : 0;\n"
              "    const unsigned __lo_wx = blockDim.x + 2 * __lo_rx, __lo_wy = blockDim.y + 2 * __lo_ry,\n"
              "                   __lo_wz = blockDim.z + 2 * __lo_rz;\n"
              "    for (unsigned __lo_s = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;\n"
              "         __lo_s < __lo_wx * __lo_wy * __lo_wz; __lo_s += blockDim.x * blockDim.y * blockDim.z)\n"
              "      " + Call + "blockIdx, make_uint3(__lo_s % __lo_wx - __lo_rx, __lo_s / __lo_wx % __lo_wy - __lo_ry,\n"
              "                     __lo_s / (__lo_wx * __lo_wy) - __lo_rz));\n"
              "  }\n";
    }
    if (!Pending.empty())
      FlushTileProducers();
    Summary[F] = OnChip.summary();
    Device += "// " + std::string(N.Complex ? "Complex" : "Simple") + " fusion of " + Names[F] +
              " (launchopt fuse).\n// On chip: " + Summary[F] + ".\n__global__ void " + Kernel +
              "(" + Params + ") {\n" + Code + "}\n\n";
    Launch[F] = Kernel + "<<<" + argumentText(Ctx, writtenOperand(First.Site->Grid)) + ", " +
                argumentText(Ctx, writtenOperand(First.Site->Block)) + ">>>(" + Args + ");";
    for (unsigned M : N.Members)
      Message[M] = "fused into '" + Kernel + "' (" + (N.Complex ? "complex" : "simple") +
                   " fusion of " + Names[F] + "; " + Summary[F] + ")";
  }

  if (Options.TimingHooks) {
    Timing = "#ifdef LAUNCHOPT_FUSION_TIMING\n#include <cstdio>\n"
             "static const char *const __lo_fusion_names[] = {";
    for (const std::string &Name : Names)
      Timing += "\"" + Name + "\", ";
    std::string Count = std::to_string(Names.size());
    Timing += "};\nstatic cudaEvent_t __lo_fusion_events[2 * " + Count +
              "];\nstatic double __lo_fusion_ms[" + Count +
              "];\n"
              "static void __lo_fusion_begin(int I) {\n"
              "  if (!__lo_fusion_events[0])\n"
              "    for (cudaEvent_t &E : __lo_fusion_events)\n"
              "      cudaEventCreate(&E);\n"
              "  cudaEventRecord(__lo_fusion_events[2 * I]);\n}\n"
              "static void __lo_fusion_end(int I) {\n"
              "  float Ms = 0;\n"
              "  cudaEventRecord(__lo_fusion_events[2 * I + 1]);\n"
              "  cudaEventSynchronize(__lo_fusion_events[2 * I + 1]);\n"
              "  cudaEventElapsedTime(&Ms, __lo_fusion_events[2 * I], __lo_fusion_events[2 * I + 1]);\n"
              "  __lo_fusion_ms[I] += Ms;\n}\n"
              "static void __lo_fusion_timing_report(int Runs) {\n"
              "  for (int I = 0; I < " + Count + "; ++I)\n"
              "    printf(\"launch %d %s: %.4f ms\\n\", I, __lo_fusion_names[I], __lo_fusion_ms[I] / Runs);\n}\n"
              "#else\n#define __lo_fusion_begin(I)\n#define __lo_fusion_end(I)\n#endif\n\n";
    for (unsigned F = 0; F < Launch.size(); ++F)
      Launch[F] = "__lo_fusion_begin(" + std::to_string(F) + ");\n  " + Launch[F] +
                  "\n  __lo_fusion_end(" + std::to_string(F) + ");";
  }

  // Each segment's new launches replace its first launch statement; the
  // other launch statements of the segment go.
  std::map<unsigned, std::string> SegmentText;
  for (unsigned F = 0; F < Plan.NewKernels.size(); ++F) {
    std::string &S = SegmentText[P.Kernels[Plan.NewKernels[F].Members.front()].Segment];
    S += (S.empty() ? "" : "\n  ") + Launch[F];
  }
  if (Options.Renaming)
    for (const auto &[Segment, Renaming] : Options.Renaming->Segments) {
      std::string Original;
      for (unsigned K = 0; K < X.Launches.size(); ++K)
        if (P.Kernels[K].Segment == Segment)
          Original += (Original.empty() ? "" : "\n  ") + textOf(Ctx, X.Launches[K].Statement);
      SegmentText[Segment] = renamedSequence(P, Renaming, SegmentText[Segment], Original, Segment);
    }
  std::set<unsigned> Placed;
  for (unsigned K = 0; K < X.Launches.size(); ++K) {
    const FileRange &R = X.Launches[K].Statement;
    if (Placed.insert(P.Kernels[K].Segment).second) {
      Result.Edits.replace(R.Begin, R.End - R.Begin, SegmentText[P.Kernels[K].Segment]);
      continue;
    }
    // A removed launch takes its line with it.
    llvm::StringRef Text = Ctx.getSourceManager().getBufferData(Ctx.getSourceManager().getMainFileID());
    unsigned Begin = R.Begin, End = R.End;
    while (Begin > 0 && (Text[Begin - 1] == ' ' || Text[Begin - 1] == '\t'))
      --Begin;
    if (End < Text.size() && Text[End] == '\n')
      ++End;
    Result.Edits.replace(Begin, End - Begin, "");
  }
  std::optional<FileRange> HostRange = writtenRange(Ctx, X.Host->getSourceRange());
  if (HostRange && (!Device.empty() || !Timing.empty()))
    Result.Edits.insert(HostRange->Begin, Timing + Device);
  if (Options.Renaming && !Options.Renaming->Segments.empty())
    Result.Edits.insert(0, "#include <launchopt/renaming.cuh>\n");

  for (unsigned K = 0; K < X.Launches.size(); ++K) {
    const LaunchSite &S = *X.Launches[K].Site;
    LaunchRemark R = remarkFor(S, "fuse");
    R.Applied = Message[K].rfind("fused into", 0) == 0;
    if (R.Applied)
      R.Parameters["new kernel"] = Message[K].substr(strlen("fused into "));
    else
      R.Message = Message[K];
    Result.Remarks.push_back(R);
  }
  if (Options.Renaming)
    Result.Remarks.insert(Result.Remarks.end(), Options.Renaming->Remarks.begin(),
                          Options.Renaming->Remarks.end());
  Result.Remarks.insert(Result.Remarks.end(), X.Remarks.begin(), X.Remarks.end());
  return Result;
}

} // namespace launchopt
