#include "FusionOnChip.h"

#include "FusionRecompute.h"
#include "FusionSites.h"
#include "Model/DeadStores.h"
#include "Model/HaloTile.h"
#include "Support/GeneratedNames.h"
#include "clang/AST/ASTContext.h"
#include <algorithm>
#include <map>
#include <set>

namespace launchopt {

using namespace clang;

namespace {

// The plan that keeps every chosen array in GMEM, for the reason given.
OnChipPlan globalPlan(unsigned Members, const unsigned Block[3],
                      std::map<unsigned, OnChipArray> &Chosen, const std::string &Why) {
  OnChipPlan Plan(Members);
  std::copy(Block, Block + 3, Plan.Block);
  for (auto &[Alloc, A] : Chosen) {
    A.Path = OnChipPath::Global;
    A.Why = Why;
    Plan.Arrays.push_back(A);
  }
  return Plan;
}

// The halo layers of producer I that later members read, per side. Every
// array it writes counts, tile or GMEM: a ring site no later member reads is
// not computed at all. A read at another site or at an offset that is not a
// planar constant needs the whole ring.
RingSides ringNeeded(unsigned I, const NewKernelProjection &F, const unsigned Block[3],
                     const std::map<unsigned, std::vector<MemberSubscript>> &Subscripts,
                     const std::vector<std::optional<std::string>> &Site,
                     const std::vector<std::optional<IndexMonomial>> &Pitch) {
  long long R = F.MemberHalo[I];
  long long Rx = Block[0] > 1 ? R : 0, Ry = Block[1] > 1 ? R : 0;
  std::array<long long, 4> Need = {0, 0, 0, 0};
  RingSides Whole = {unsigned(Rx), unsigned(Rx), unsigned(Ry), unsigned(Ry)};
  for (const auto &[Alloc, Uses] : Subscripts) {
    bool Written = std::any_of(Uses.begin(), Uses.end(), [&](const MemberSubscript &U) {
      return U.Member == I && U.Access->Writes;
    });
    if (!Written)
      continue;
    for (const MemberSubscript &U : Uses) {
      if (U.Member <= I || !U.Access->Reads)
        continue;
      std::optional<std::pair<long long, long long>> D;
      if (Pitch[U.Member] && Site[U.Member] && Site[U.Member] == Site[I])
        D = planarOffset(U.Access->Offset, *Pitch[U.Member]);
      if (!D)
        return Whole;
      // The reader runs at its own sites and over its own halo layers.
      long long Own = F.MemberHalo[U.Member];
      long long OwnX = Block[0] > 1 ? Own : 0, OwnY = Block[1] > 1 ? Own : 0;
      Need[0] = std::max(Need[0], OwnX - D->first);
      Need[1] = std::max(Need[1], OwnX + D->first);
      Need[2] = std::max(Need[2], OwnY - D->second);
      Need[3] = std::max(Need[3], OwnY + D->second);
    }
  }
  RingSides Out;
  for (unsigned K = 0; K < 4; ++K)
    Out[K] = unsigned(std::clamp(Need[K], 0ll, K < 2 ? Rx : Ry));
  return Out;
}

// What the members of a new kernel touch: each member's site and its pitch,
// whether the block is a constant 2D shape, and every subscripted access to
// an allocation.
struct MemberAccesses {
  std::vector<std::optional<std::string>> Site;
  std::vector<std::optional<IndexMonomial>> Pitch;
  bool ConstantBlock = true;
  std::map<unsigned, std::vector<MemberSubscript>> Subscripts; // by allocation
};

MemberAccesses collectAccesses(const ASTContext &Ctx, const FusionExtraction &X,
                               const NewKernelProjection &F, const unsigned Block[3]) {
  unsigned N = F.Members.size();
  MemberAccesses M;
  M.Site.resize(N);
  M.Pitch.resize(N);
  for (unsigned I = 0; I < N; ++I) {
    const ExtractedLaunch &L = X.Launches[F.Members[I]];
    M.ConstantBlock &= L.ConstantBlock;
    M.Site[I] = canonicalSite(Ctx, L);
    M.Pitch[I] = sitePitch(L.Access.Site);
    for (const ParameterAccess &P : L.Access.Parameters) {
      int Alloc = P.Index < L.ArgumentAllocation.size() ? L.ArgumentAllocation[P.Index] : -1;
      if (Alloc < 0)
        continue;
      std::string Element = L.Site->Child->getParamDecl(P.Index)
                                ->getType()
                                ->getPointeeType()
                                .getUnqualifiedType()
                                .getAsString(Ctx.getPrintingPolicy());
      for (const SubscriptAccess &S : P.Subscripts)
        M.Subscripts[Alloc].push_back({I, &S, Element});
    }
  }
  M.ConstantBlock &= Block[2] == 1;
  return M;
}

// A neighbour dependence (complex fusion, §II-D2): the one producer computed
// over its halo layers fills a tile the later members read. A.Why says why
// not, when the array stays in GMEM.
void planTile(OnChipArray &A, const std::vector<MemberSubscript> &Uses,
              const std::set<unsigned> &Writers, bool PlainWrites, const NewKernelProjection &F,
              const MemberAccesses &M, const unsigned Block[3]) {
  unsigned W = *Writers.begin();
  A.Radius = F.MemberHalo[W];
  auto Refuse = [&A](std::string Why) {
    if (A.Why.empty())
      A.Why = std::move(Why);
  };
  if (!M.ConstantBlock)
    Refuse("the block is not a constant two-dimensional shape");
  if (Writers.size() != 1 || !PlainWrites)
    Refuse("not written by one member with plain stores");
  unsigned Rx = Block[0] > 1 ? A.Radius : 0, Ry = Block[1] > 1 ? A.Radius : 0;
  for (const MemberSubscript &U : Uses) {
    if (U.Member < W)
      Refuse("read before its producer");
    if (U.Member == W && U.Access->Reads)
      Refuse("read by its producer");
    if (!M.Site[U.Member] || *M.Site[U.Member] != *M.Site[W] || !M.Pitch[U.Member]) {
      Refuse("the members' sites are not the same planar index");
      continue;
    }
    std::optional<std::pair<long long, long long>> D =
        planarOffset(U.Access->Offset, *M.Pitch[U.Member]);
    unsigned Own = F.MemberHalo[U.Member];
    unsigned OwnX = Block[0] > 1 ? Own : 0, OwnY = Block[1] > 1 ? Own : 0;
    if (!D || std::abs(D->first) + OwnX > Rx || std::abs(D->second) + OwnY > Ry)
      Refuse("an offset falls outside the tile");
  }
  A.Path = A.Why.empty() ? OnChipPath::SharedTile : OnChipPath::Global;
}

// Where an allocation that several members touch goes: a tile (or GMEM, with
// the reason) when a member over halo layers writes it, a register when the
// members that run once per thread use it at one site; none otherwise.
std::optional<OnChipArray> chooseArrayPath(unsigned Alloc, const std::vector<MemberSubscript> &Uses,
                                           const FusionExtraction &X, const NewKernelProjection &F,
                                           const MemberAccesses &M,
                                           const std::map<unsigned, std::string> &KeepGlobal,
                                           const unsigned Block[3]) {
  std::set<unsigned> Touching, Writers, AtSite;
  std::set<std::string> Elements;
  bool PlainWrites = true;
  for (const MemberSubscript &U : Uses) {
    Touching.insert(U.Member);
    Elements.insert(U.Element);
    if (U.Access->Writes) {
      Writers.insert(U.Member);
      PlainWrites &= U.Access->PlainStore && !U.Access->Reads;
    }
    if (U.Access->Writes || U.Access->Offset.empty())
      AtSite.insert(U.Member);
  }
  if (Touching.size() < 2 || Elements.size() != 1)
    return std::nullopt;
  OnChipArray A;
  A.Allocation = Alloc;
  A.Name = X.Problem.Arrays[Alloc].Name;
  A.Element = *Elements.begin();
  if (auto Kept = KeepGlobal.find(Alloc); Kept != KeepGlobal.end()) {
    A.Why = Kept->second;
    A.Members = Touching;
    return A;
  }
  bool HaloWriter = false;
  for (unsigned W : Writers)
    HaloWriter |= F.MemberHalo[W] > 0;
  if (HaloWriter) {
    planTile(A, Uses, Writers, PlainWrites, F, M, Block);
    A.Members = Touching;
    return A;
  }

  // Same-index values (shared read-only data, or a result read at the
  // producer's own site): a register per thread, shared by the members
  // that run once per thread (a member over halo layers reads GMEM).
  for (unsigned I : AtSite)
    if (F.MemberHalo[I] == 0)
      A.Members.insert(I);
  if (A.Members.size() < 2 || !PlainWrites)
    return std::nullopt;
  bool Same = true;
  for (unsigned I : A.Members)
    Same &= M.Site[I] && M.Site[I] == M.Site[*A.Members.begin()];
  if (!Same)
    return std::nullopt;
  A.Path = OnChipPath::Register;
  return A;
}

// Producers read at a few neighbours only: recomputed there, not tiled.
void preferRecomputation(const NewKernelProjection &F, unsigned MaxRecomputed, MemberAccesses &M,
                         std::map<unsigned, OnChipArray> &Chosen, OnChipPlan &Plan) {
  for (unsigned W = 0; W < F.Members.size(); ++W) {
    if (!F.MemberHalo[W])
      continue;
    auto Sites = recomputeSites(W, F, MaxRecomputed, Chosen, M.Subscripts, M.Pitch);
    if (!Sites)
      continue;
    Plan.RecomputeSites[W] = *Sites;
    for (auto &[Alloc, A] : Chosen)
      if (A.Path == OnChipPath::SharedTile &&
          std::any_of(M.Subscripts[Alloc].begin(), M.Subscripts[Alloc].end(),
                      [&](const MemberSubscript &U) { return U.Member == W && U.Access->Writes; }))
        A.Path = OnChipPath::Recomputed;
  }
}

// Arrays whose stores the new kernel leaves out: droppable (DeadStores.h),
// and every read redirected on chip, a register only at the reader's own
// site. A read beyond the grid's x edge (a recomputed neighbour the grid
// does not run, a tile site no producer wrote) falls back to GMEM, where a
// row-major array holds the next row's first columns: those own sites keep
// their stores.
void leaveOutStores(const FusionExtraction &X, const NewKernelProjection &F,
                    const MemberAccesses &M, std::map<unsigned, OnChipArray> &Chosen) {
  for (auto &[Alloc, A] : Chosen) {
    if (A.Path == OnChipPath::Global || !storesDroppable(X.Problem, F.Members, Alloc))
      continue;
    bool Redirected = true;
    long long Reach = 0;
    for (const MemberSubscript &U : M.Subscripts.at(Alloc)) {
      if (!U.Access->Reads)
        continue;
      Redirected &=
          A.Members.count(U.Member) && (A.Path != OnChipPath::Register || U.Access->Offset.empty());
      if (A.Path == OnChipPath::Register)
        continue;
      std::optional<std::pair<long long, long long>> D;
      if (M.Pitch[U.Member])
        D = planarOffset(U.Access->Offset, *M.Pitch[U.Member]);
      Redirected &= D.has_value();
      Reach = std::max(Reach, D ? std::llabs(D->first) : 0);
    }
    if (!Redirected)
      continue;
    A.StoresLeftOut = true;
    if (Reach) {
      std::string Site = "(blockIdx.x * blockDim.x + threadIdx.x)", R = std::to_string(Reach) + "u";
      A.EdgeStores = Site + " < " + R + " || " + Site + " + " + R + " >= gridDim.x * blockDim.x";
    }
  }
}

// Tiles that do not fit the block's static shared memory stay in GMEM.
void fitTiles(const FusionExtraction &X, const NewKernelProjection &F, const unsigned Block[3],
              std::map<unsigned, OnChipArray> &Chosen) {
  unsigned SharedBytes = 0;
  for (unsigned M : F.Members)
    SharedBytes += X.Problem.Kernels[M].SharedMemoryBytes;
  for (auto &[Alloc, A] : Chosen) {
    if (A.Path != OnChipPath::SharedTile)
      continue;
    unsigned Bytes = haloTile(Block, A.Radius).bytes(X.Problem.Arrays[Alloc].ElementBytes);
    if (SharedBytes + Bytes > HaloTileSharedLimit) {
      A.Path = OnChipPath::Global;
      A.Why = "the tile does not fit in shared memory";
      continue;
    }
    SharedBytes += Bytes;
  }
}

// The declarations, extra parameters and body edits that redirect the
// chosen arrays' accesses to registers, tiles or recomputed values; false
// when an access comes from a macro.
bool redirectAccesses(const ASTContext &Ctx, const std::map<unsigned, OnChipArray> &Chosen,
                      MemberAccesses &M, OnChipPlan &Plan,
                      std::vector<std::set<unsigned>> &TileWriterOf,
                      std::vector<std::string> &RecomputeParams) {
  for (const auto &[Alloc, A] : Chosen) {
    if (A.Path == OnChipPath::Global)
      continue;
    std::string Reg = generated::OnChipRegister + A.Name;
    std::string Has = generated::OnChipRegisterSet + A.Name;
    std::string Tile = generated::OnChipTile + A.Name, Set = generated::OnChipTileSet + A.Name;
    const std::set<unsigned> &Members = A.Members;
    if (A.Path == OnChipPath::Recomputed) {
      if (!recomputedEdits(Ctx, A, M.Subscripts[Alloc], M.Pitch, Plan, RecomputeParams))
        return false;
      continue;
    }
    if (A.Path == OnChipPath::Register) {
      Plan.Declarations += "  " + A.Element + " " + Reg + ";\n  bool " + Has + " = false;\n";
      for (unsigned I : Members) {
        Plan.ExtraParams[I] += A.Element + " &" + Reg + ", bool &" + Has + ", ";
        Plan.ExtraArgs[I] += Reg + ", " + Has + ", ";
      }
    } else {
      std::string Size = std::to_string(haloTile(Plan.Block, A.Radius).sites());
      Plan.Declarations += "  __shared__ " + A.Element + " " + Tile + "[" + Size +
                           "];\n  __shared__ unsigned char " + Set + "[" + Size + "];\n";
      for (unsigned I : Members) {
        Plan.ExtraParams[I] += A.Element + " *" + Tile + ", unsigned char *" + Set + ", ";
        Plan.ExtraArgs[I] += Tile + ", " + Set + ", ";
      }
    }
    for (const MemberSubscript &U : M.Subscripts[Alloc]) {
      if (!Members.count(U.Member))
        continue;
      std::optional<FileRange> R = readableRange(Ctx, U.Access->Expr->getSourceRange());
      if (!R)
        return false;
      std::string Original = U.Access->CachedRead.empty()
                                 ? readableText(Ctx, U.Access->Expr->getSourceRange())
                                 : U.Access->CachedRead;
      std::vector<BodyEdit> &E = Plan.Edits[U.Member];
      std::optional<FileRange> Store =
          U.Access->PlainStore ? readableRange(Ctx, U.Access->PlainStore->getSourceRange())
                               : std::nullopt;
      if (A.Path == OnChipPath::Register) {
        if (U.Access->Writes) {
          E.push_back({R->Begin, R->End, A.StoresLeftOut ? Reg : Original + " = " + Reg});
          E.push_back({Store->End, Store->End, ", " + Has + " = true"});
        } else if (U.Access->Offset.empty()) {
          E.push_back({R->Begin, R->End,
                       "(" + Has + " ? " + Reg + " : (" + Has + " = true, " + Reg + " = " +
                           Original + "))"});
        }
        continue;
      }
      if (U.Access->Writes) {
        // paper §II-D2: halo sites go to the tile only, own sites to GMEM too.
        const std::string Site = "[" + std::string(generated::TileSiteParam) + "]";
        E.push_back({R->Begin, R->End, Tile + Site});
        E.push_back({Store->End, Store->End,
                     ", " + Set + Site + " = 1" + ownSiteStore(A, Original + " = " + Tile + Site)});
        TileWriterOf[U.Member].insert(Alloc);
        continue;
      }
      auto D = *planarOffset(U.Access->Offset, *M.Pitch[U.Member]);
      unsigned Rx = Plan.Block[0] > 1 ? A.Radius : 0, Ry = Plan.Block[1] > 1 ? A.Radius : 0;
      unsigned Wx = haloTile(Plan.Block, A.Radius).Width;
      auto Signed = [](long long V) {
        return V ? (V > 0 ? " + " : " - ") + std::to_string(std::llabs(V)) : std::string();
      };
      std::string Row = Plan.Block[1] > 1 ? "((int)threadIdx.y" + Signed(Ry + D.second) + ") * " +
                                                std::to_string(Wx) + " + "
                                          : "";
      std::string T = Row + "(int)threadIdx.x" + Signed(Rx + D.first);
      // A site the producer does not write (outside its guard) keeps the
      // value in GMEM, as in the unfused program.
      E.push_back({R->Begin, R->End,
                   "(" + Set + "[" + T + "] ? " + Tile + "[" + T + "] : " + Original + ")"});
    }
  }
  return true;
}

} // namespace

OnChipPlan planOnChipMemory(const ASTContext &Ctx, const FusionExtraction &X,
                            const NewKernelProjection &F,
                            const std::map<unsigned, std::string> &KeepGlobal,
                            unsigned MaxRecomputed) {
  unsigned N = F.Members.size();
  OnChipPlan Plan(N);
  const OriginalKernel &First = X.Problem.Kernels[F.Members.front()];
  std::copy(std::begin(First.BlockDim), std::end(First.BlockDim), Plan.Block);
  MemberAccesses M = collectAccesses(Ctx, X, F, Plan.Block);

  std::map<unsigned, OnChipArray> Chosen;
  for (const auto &[Alloc, Uses] : M.Subscripts)
    if (std::optional<OnChipArray> A =
            chooseArrayPath(Alloc, Uses, X, F, M, KeepGlobal, Plan.Block))
      Chosen[Alloc] = *A;
  preferRecomputation(F, MaxRecomputed, M, Chosen, Plan);
  fitTiles(X, F, Plan.Block, Chosen);
  leaveOutStores(X, F, M, Chosen);

  // Body edits. Edits of one body must not overlap; if they do (a redirected
  // subscript inside another one's index), every array keeps the GMEM path.
  std::vector<std::set<unsigned>> TileWriterOf(N);
  std::vector<std::string> RecomputeParams(N);
  if (!redirectAccesses(Ctx, Chosen, M, Plan, TileWriterOf, RecomputeParams))
    return globalPlan(N, Plan.Block, Chosen, "an access comes from a macro");
  for (unsigned I = 0; I < N; ++I) {
    if (!Plan.RecomputeSites[I].empty())
      Plan.ExtraParams[I] += RecomputeParams[I] + "bool " + generated::OwnSiteParam + ", ";
    if (!TileWriterOf[I].empty()) {
      Plan.ExtraParams[I] += "unsigned " + std::string(generated::TileSiteParam) + ", bool " +
                             generated::OwnSiteParam + ", ";
      for (unsigned Alloc : TileWriterOf[I])
        Plan.TilesWritten[I].push_back(Chosen[Alloc].Name);
      Plan.RingNeeded[I] = ringNeeded(I, F, Plan.Block, M.Subscripts, M.Site, M.Pitch);
    }
    std::vector<BodyEdit> &E = Plan.Edits[I];
    std::stable_sort(E.begin(), E.end(), [](const BodyEdit &A, const BodyEdit &B) {
      return A.Begin != B.Begin ? A.Begin < B.Begin : A.End < B.End;
    });
    for (size_t K = 1; K < E.size(); ++K)
      if (E[K].Begin < E[K - 1].End)
        return globalPlan(N, Plan.Block, Chosen, "a redirected access lies inside another one");
  }
  for (const auto &[Alloc, A] : Chosen)
    Plan.Arrays.push_back(A);
  return Plan;
}

} // namespace launchopt
