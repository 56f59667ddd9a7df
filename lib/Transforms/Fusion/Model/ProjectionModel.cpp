#include "ProjectionModel.h"

#include "DeadStores.h"
#include "HaloTile.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace launchopt {

ProjectionModel::ProjectionModel(const FusionProblem &P, const FusionGraphs &G,
                                 const GpuDescription &Gpu, bool OnChip)
    : P(P), G(G), Gpu(Gpu), OnChip(OnChip), Outgoing(P.Kernels.size()) {
  for (const KernelDependence &D : G.Dependences)
    Outgoing[D.From].push_back(&D);
  for (unsigned K = 0; K < P.Kernels.size(); ++K) {
    double Measured = P.Kernels[K].MeasuredSeconds;
    Original.push_back(Measured > 0 ? Measured : project({K}).ProjectedSeconds);
  }
}

// The copies renaming makes for F (FusionRenaming.h): an array whose
// versions meet in F, one of them read or written across threads (at a
// neighbour, or by a member over halo layers), gets its earlier version in
// a new buffer copied from the allocation, a load and a store per site.
static double renamingCopyBytes(const NewKernelProjection &F, const FusionGraphs &G,
                                const FusionProblem &P, double Sites) {
  std::set<unsigned> Copied;
  for (unsigned I = 0; I < F.Members.size(); ++I)
    for (unsigned J = I + 1; J < F.Members.size(); ++J) {
      const OriginalKernel &A = P.Kernels[F.Members[I]], &B = P.Kernels[F.Members[J]];
      for (unsigned UA = 0; UA < A.Uses.size(); ++UA)
        for (unsigned UB = 0; UB < B.Uses.size(); ++UB) {
          const ArrayUse &X = A.Uses[UA], &Y = B.Uses[UB];
          bool Across = X.HaloRadius || Y.HaloRadius || F.MemberHalo[I] || F.MemberHalo[J];
          if (X.Array == Y.Array && (X.Writes || Y.Writes) && Across &&
              G.UseVersions[F.Members[I]][UA] != G.UseVersions[F.Members[J]][UB])
            Copied.insert(X.Array);
        }
    }
  double Bytes = 0;
  for (unsigned Array : Copied)
    Bytes += 2 * Sites * P.Arrays[Array].ElementBytes;
  return Bytes;
}

// Extra sites per block for a halo of Radius along every axis the block spans.
static unsigned haloPoints(const OriginalKernel &K, unsigned Radius) {
  if (!Radius)
    return 0;
  unsigned long long Extended = 1;
  for (unsigned D : K.BlockDim)
    Extended *= D > 1 ? D + 2 * Radius : D;
  return static_cast<unsigned>(Extended - K.threadsPerBlock());
}

double NewKernelProjection::seconds(double TrafficBytes) const {
  return Efficiency > 0 && Bytes > 0 ? TrafficBytes / Bytes * MemorySeconds : 0;
}

// Whether F recomputes Array's producer instead of filling a tile.
static bool recomputed(const NewKernelProjection &F, unsigned Array);

// The neighbour sites member K of F is recomputed at (0: none).
static unsigned recomputedNeighbours(const NewKernelProjection &F, const OriginalKernel &K) {
  unsigned Neighbours = 0;
  for (const HaloArrayPath &H : F.HaloArrays)
    if (const ArrayUse *U = K.use(H.Array); U && U->Writes)
      Neighbours = std::max(Neighbours, H.RecomputedNeighbours);
  return Neighbours;
}

void ProjectionModel::projectHaloPath(NewKernelProjection &F) const {
  const OriginalKernel &First = P.Kernels[F.Members.front()];
  unsigned N = F.Members.size();
  double Sites = First.sites();
  unsigned SharedBytes = 0;
  bool ConstantBlocks = true;
  for (unsigned M : F.Members) {
    SharedBytes += P.Kernels[M].SharedMemoryBytes;
    ConstantBlocks &= P.Kernels[M].ConstantBlock;
  }

  // Which arrays code generation passes through a tile and which through
  // GMEM; the same tests as planOnChipMemory on what the problem records,
  // in the same (array) order, so tiles fill shared memory alike.
  std::map<unsigned, std::vector<unsigned>> Touching; // array -> member positions
  for (unsigned I = 0; I < N; ++I)
    for (const ArrayUse &U : P.Kernels[F.Members[I]].Uses)
      Touching[U.Array].push_back(I);
  std::map<unsigned, std::pair<unsigned, const HaloArrayPath *>>
      Producer; // array -> (position, path)
  F.HaloArrays.clear();
  for (const auto &[A, Users] : Touching) {
    if (Users.size() < 2)
      continue;
    std::vector<unsigned> Writers;
    bool PlainWrites = true;
    for (unsigned I : Users)
      if (const ArrayUse *U = P.Kernels[F.Members[I]].use(A); U->Writes) {
        Writers.push_back(I);
        PlainWrites &= !U->Reads;
      }
    unsigned Radius = 0;
    for (unsigned W : Writers)
      Radius = std::max(Radius, F.MemberHalo[W]);
    if (!Radius)
      continue;
    HaloArrayPath H;
    H.Array = A;
    H.Radius = Radius;
    if (!OnChip)
      H.Why = "on-chip paths are off";
    else if (First.BlockDim[2] > 1 || !ConstantBlocks)
      H.Why = "the block is not a constant two-dimensional shape";
    else if (Writers.size() != 1 || !PlainWrites)
      H.Why = "not written by one member with plain stores";
    else if (Users.front() < Writers.front())
      H.Why = "read before its producer";
    if (H.Why.empty()) {
      unsigned Bytes = haloTile(First.BlockDim, Radius).bytes(P.Arrays[A].ElementBytes);
      if (SharedBytes + Bytes > HaloTileSharedLimit) {
        H.Why = "the tile does not fit in shared memory";
      } else {
        H.SharedTile = true;
        H.TileBytes = Bytes;
        SharedBytes += Bytes;
        F.TileSharedMemory += Bytes;
      }
    }
    F.HaloArrays.push_back(H);
  }
  projectRecomputation(F);
  for (const HaloArrayPath &H : F.HaloArrays)
    for (unsigned I : Touching[H.Array])
      if (P.Kernels[F.Members[I]].use(H.Array)->Writes)
        Producer[H.Array] = {I, &H};

  // A member over halo layers runs its body at the ring's sites too: its
  // GMEM loads and stores there are extra traffic, except what goes to or
  // comes from a tile.
  F.HaloRingBytes = F.GlobalRoundTripBytes = 0;
  for (unsigned I = 0; I < N; ++I) {
    const OriginalKernel &K = P.Kernels[F.Members[I]];
    double Ring = Sites * haloPoints(K, F.MemberHalo[I]) / K.threadsPerBlock();
    // A recomputing producer writes registers only away from its site.
    bool Recomputes = recomputedNeighbours(F, K) > 0;
    for (const ArrayUse &U : K.Uses) {
      auto It = Producer.find(U.Array);
      const HaloArrayPath *H = It == Producer.end() ? nullptr : It->second.second;
      bool Produces = H && It->second.first == I;
      double Element = P.Arrays[U.Array].ElementBytes;
      if (H && !H->SharedTile && !H->RecomputedNeighbours && !Produces && U.Reads) {
        // The GMEM round trip: what the producer stored, reloaded.
        F.GlobalRoundTripBytes += (Sites + Ring) * Element;
        continue;
      }
      if (H && (H->SharedTile || H->RecomputedNeighbours))
        continue;
      double Extra = (U.Reads + (U.Writes && !Recomputes)) * Ring * Element;
      (H && Produces ? F.GlobalRoundTripBytes : F.HaloRingBytes) += Extra;
    }
  }

  // The generator's barrier: before a member that reads what an earlier
  // member wrote, at a neighbour or over halo layers.
  F.Barriers = 0;
  for (unsigned I = 1; I < N; ++I) {
    bool Barrier = false;
    for (unsigned J = 0; J < I && !Barrier; ++J)
      for (const ArrayUse &W : P.Kernels[F.Members[J]].Uses)
        if (const ArrayUse *R = P.Kernels[F.Members[I]].use(W.Array);
            W.Writes && R && !recomputed(F, W.Array))
          Barrier |= R->Reads && (R->HaloRadius > 0 || F.MemberHalo[J] > 0);
    F.Barriers += Barrier;
  }
}

// Code generation recomputes a producer over halo layers in registers at
// the neighbour sites later members read its results at, instead of filling
// tiles, when all of those results would have had tiles, the readers run
// once at their own sites, at no more than MaxRecomputed neighbours (the
// distinct offsets of one read, the thread load, less its own site), and
// the producer reads nothing an earlier member writes (FusionRecompute.h).
void ProjectionModel::projectRecomputation(NewKernelProjection &F) const {
  for (unsigned W = 0; W < F.Members.size(); ++W) {
    if (!F.MemberHalo[W] || !MaxRecomputed)
      continue;
    const OriginalKernel &K = P.Kernels[F.Members[W]];
    std::vector<HaloArrayPath *> Produced;
    bool Possible = true;
    unsigned Neighbours = 0;
    for (HaloArrayPath &H : F.HaloArrays) {
      const ArrayUse *Own = K.use(H.Array);
      if (!Own || !Own->Writes)
        continue;
      Produced.push_back(&H);
      Possible &= H.SharedTile;
      for (unsigned I = W + 1; I < F.Members.size(); ++I)
        if (const ArrayUse *R = P.Kernels[F.Members[I]].use(H.Array); R && R->Reads) {
          Possible &= !F.MemberHalo[I];
          Neighbours = std::max(Neighbours, R->ThreadLoad - 1);
        }
    }
    for (const ArrayUse &U : K.Uses)
      for (unsigned J = 0; J < W && U.Reads; ++J)
        if (const ArrayUse *Earlier = P.Kernels[F.Members[J]].use(U.Array))
          Possible &= !Earlier->Writes;
    if (Produced.empty() || !Possible || !Neighbours || Neighbours > MaxRecomputed)
      continue;
    for (HaloArrayPath *H : Produced) {
      F.TileSharedMemory -= H->TileBytes;
      H->SharedTile = false;
      H->TileBytes = 0;
      H->RecomputedNeighbours = Neighbours;
    }
  }
}

// Stores F leaves out: of a droppable array (DeadStores.h) that every
// member reads on chip, as code generation's paths serve it: through a tile
// or a recomputation when a member over halo layers produces it, else from
// the register of the reader's own site, in members that run once per site.
std::vector<unsigned> ProjectionModel::storesLeftOut(const NewKernelProjection &F) const {
  std::vector<unsigned> Out;
  if (!OnChip)
    return Out;
  for (unsigned A : F.Pivot) {
    if (!storesDroppable(P, F.Members, A))
      continue;
    bool HaloOnChip = false, HaloWriter = false;
    for (const HaloArrayPath &H : F.HaloArrays)
      HaloOnChip |= H.Array == A && (H.SharedTile || H.RecomputedNeighbours);
    for (unsigned I = 0; I < F.Members.size(); ++I)
      if (const ArrayUse *U = P.Kernels[F.Members[I]].use(A); U && U->Writes)
        HaloWriter |= F.MemberHalo[I] > 0;
    bool OnChipReads = true;
    for (unsigned I = 0; I < F.Members.size(); ++I)
      for (const ArrayUse &U : P.Kernels[F.Members[I]].Uses)
        if (U.Array == A && U.Reads)
          OnChipReads &= HaloWriter ? HaloOnChip : !U.HaloRadius && !F.MemberHalo[I];
    if (OnChipReads)
      Out.push_back(A);
  }
  return Out;
}

// Each member issues its instructions at its own sites, again over its
// halo ring when it fills tiles or GMEM there, and again at every neighbour
// it is recomputed at. A member whose instructions are unknown adds none.
double ProjectionModel::instructionSeconds(const NewKernelProjection &F) const {
  if (Gpu.InstructionRate <= 0)
    return 0;
  double Instructions = 0;
  for (unsigned I = 0; I < F.Members.size(); ++I) {
    const OriginalKernel &K = P.Kernels[F.Members[I]];
    unsigned Recomputed = recomputedNeighbours(F, K);
    double Runs = 1 + (Recomputed ? Recomputed
                                  : double(haloPoints(K, F.MemberHalo[I])) / K.threadsPerBlock());
    Instructions += K.InstructionsPerSite * K.sites() * Runs;
  }
  return Instructions / Gpu.InstructionRate;
}

static bool recomputed(const NewKernelProjection &F, unsigned Array) {
  for (const HaloArrayPath &H : F.HaloArrays)
    if (H.Array == Array)
      return H.RecomputedNeighbours > 0;
  return false;
}

void ProjectionModel::projectResources(NewKernelProjection &F) const {
  const OriginalKernel &First = P.Kernels[F.Members.front()];
  unsigned Thr = First.threadsPerBlock();
  unsigned C = F.HaloPoints > 0;

  // Eqs. (4)-(6): registers for the pivot's stencil neighbourhood, for
  // fetching GMEM into SMEM (eq. 5) and for the halo, on top of addresses.
  unsigned MaxLoad = 0, Adr = 0, OwnRegisters = 0, StaticShared = 0, PivotBytes = 0;
  for (unsigned M : F.Members) {
    const OriginalKernel &K = P.Kernels[M];
    Adr = std::max(Adr, K.AddressRegisters);
    OwnRegisters = std::max(OwnRegisters, K.Registers);
    StaticShared += K.SharedMemoryBytes;
    for (const ArrayUse &U : K.Uses)
      if (std::find(F.Pivot.begin(), F.Pivot.end(), U.Array) != F.Pivot.end())
        MaxLoad = std::max(MaxLoad, U.ThreadLoad);
  }
  for (unsigned A : F.Pivot)
    PivotBytes += P.Arrays[A].ElementBytes;
  double Fetch = 1 + C * F.HaloPerThread;
  double Needed = Fetch + Gpu.RegisterReuseFactor * MaxLoad + C * F.HaloPerThread + Adr + 1;
  unsigned Registers =
      std::max<unsigned>(OwnRegisters, static_cast<unsigned>(std::floor(Needed)) + 1);
  unsigned Unit = std::max(1u, Gpu.RegisterAllocationUnit);
  F.Registers = (Registers + Unit - 1) / Unit * Unit;
  if (F.Registers > Gpu.MaxRegistersPerThread) { // eq. (2), constraint (1.7)
    F.Feasible = false;
    F.Infeasibility = "needs " + std::to_string(F.Registers) + " registers per thread";
    return;
  }

  // Eq. (7): the pivot's sites staged in SMEM, with bank padding; with halo
  // layers, the tiles code generation declares.
  F.SharedMemoryPerBlock =
      (1 + Gpu.BankConflictPadding) * (C ? F.TileSharedMemory : double(Thr) * PivotBytes) +
      StaticShared;
  unsigned Blocks = std::min(Gpu.MaxBlocksPerMultiprocessor, Gpu.MaxThreadsPerMultiprocessor / Thr);
  Blocks = std::min(Blocks, Gpu.RegistersPerMultiprocessor / (Thr * F.Registers)); // eq. (3)
  if (F.SharedMemoryPerBlock > 0)
    Blocks = std::min<unsigned>(
        Blocks, static_cast<unsigned>(Gpu.SharedMemoryPerMultiprocessor / F.SharedMemoryPerBlock));
  F.BlocksPerMultiprocessor = Blocks;
  if (Blocks == 0) { // constraint (1.6)
    F.Feasible = false;
    F.Infeasibility = "a block needs more shared memory or registers than a multiprocessor has";
    return;
  }
  // Eq. (8), without its halo factor: the halo work is charged as traffic.
  F.BlockingFactor = double(Thr) * Blocks / std::max<size_t>(1, F.Pivot.size());
  F.Efficiency = std::min(1.0, F.BlockingFactor / Gpu.SaturatingBlockingFactor);
}

NewKernelProjection ProjectionModel::project(llvm::ArrayRef<unsigned> Members) const {
  NewKernelProjection F;
  F.Members.assign(Members.begin(), Members.end());
  std::sort(F.Members.begin(), F.Members.end());
  unsigned N = P.Kernels.size();
  llvm::BitVector In(N);
  for (unsigned M : F.Members)
    In.set(M);
  auto Reject = [&F](std::string Why) {
    F.Feasible = false;
    F.Infeasibility = std::move(Why);
    return F;
  };
  for (unsigned M : F.Members)
    F.OriginalSum += Members.size() > 1 ? Original[M] : 0;

  const OriginalKernel &First = P.Kernels[F.Members.front()];
  for (unsigned M : F.Members) {
    const OriginalKernel &K = P.Kernels[M];
    if (K.Segment != First.Segment)
      return Reject("a host copy or stream change separates '" + First.Name + "' and '" + K.Name +
                    "'");
    if (K.LaunchConfig != First.LaunchConfig || K.Blocks != First.Blocks ||
        K.threadsPerBlock() != First.threadsPerBlock())
      return Reject("'" + First.Name + "' and '" + K.Name +
                    "' have different launch configurations");
  }

  // A read through an index array may reach any element, also one another
  // block writes: a producer of it in the same kernel would need a
  // grid-wide dependence, so the read stays behind the producer's launch.
  for (unsigned I = 0; I < F.Members.size(); ++I)
    for (const ArrayUse &R : P.Kernels[F.Members[I]].Uses)
      for (unsigned J = 0; R.Indirect && J < I; ++J)
        if (const ArrayUse *W = P.Kernels[F.Members[J]].use(R.Array); W && W->Writes)
          return Reject(indirectReadReason(P, F.Members[I], F.Members[J], R.Array));

  // Constraint (1.3): whatever lies on a path between two members is a member.
  llvm::BitVector Below(N), Above(N);
  for (unsigned M : F.Members) {
    Below |= G.Descendants[M];
    Above |= G.Ancestors[M];
  }
  Below &= Above;
  Below.reset(In);
  if (Below.any())
    return Reject("'" + P.Kernels[Below.find_first()].Name +
                  "' lies on a precedence path between members");

  // Constraint (1.5): every member is kin to every other one, i.e. the
  // members are connected through the arrays they share.
  std::map<unsigned, unsigned> ArrayUsers;
  for (unsigned M : F.Members)
    for (const ArrayUse &U : P.Kernels[M].Uses)
      ++ArrayUsers[U.Array];
  for (auto [A, Users] : ArrayUsers)
    if (Users > 1)
      F.Pivot.push_back(A);
  if (F.Members.size() > 1) {
    std::vector<unsigned> Reached{F.Members.front()};
    std::set<unsigned> Seen{F.Members.front()};
    for (size_t I = 0; I < Reached.size(); ++I)
      for (unsigned M : F.Members)
        if (!Seen.count(M))
          for (const ArrayUse &U : P.Kernels[M].Uses)
            if (P.Kernels[Reached[I]].use(U.Array)) {
              Seen.insert(M);
              Reached.push_back(M);
              break;
            }
    if (Reached.size() != F.Members.size())
      return Reject("members do not all share data (degree of kinship 0)");
  }

  // Halo layers (§II-D2): a member whose results a later member reads at a
  // neighbour is computed over that many extra layers, transitively.
  F.MemberHalo.assign(F.Members.size(), 0);
  std::map<unsigned, unsigned> Position;
  for (unsigned I = 0; I < F.Members.size(); ++I)
    Position[F.Members[I]] = I;
  for (unsigned I = F.Members.size(); I-- > 0;)
    for (const KernelDependence *D : Outgoing[F.Members[I]]) {
      if (!In.test(D->To))
        continue;
      F.Complex = true;
      if (D->Kind == DependenceKind::Flow)
        F.MemberHalo[I] = std::max(F.MemberHalo[I], F.MemberHalo[Position[D->To]] + D->Radius);
    }
  // Running a member at halo sites calls its body again at other threads'
  // indices: a body that synchronises its block would wait at its barrier
  // for threads that run other sites, and index its shared tile out of range.
  for (unsigned I = 0; I < F.Members.size(); ++I)
    if (F.MemberHalo[I] > 0 && P.Kernels[F.Members[I]].Barrier)
      return Reject("'" + P.Kernels[F.Members[I]].Name +
                    "' synchronises its block (__syncthreads): its body cannot be run again "
                    "at the neighbours' sites that a later member reads");
  // The halo sites of one block are the own sites of its neighbours, which
  // run concurrently: a member computed over a halo must not read or write
  // what another member writes, and no member may read at a neighbour what a
  // later member overwrites.
  for (unsigned I = 0; I < F.Members.size(); ++I)
    for (const KernelDependence *D : Outgoing[F.Members[I]]) {
      if (!In.test(D->To))
        continue;
      const std::string &Name = P.Arrays[D->Array].Name;
      if (D->Kind == DependenceKind::Anti && (D->Radius > 0 || F.MemberHalo[I] > 0))
        return Reject("'" + P.Kernels[D->To].Name + "' overwrites " + Name +
                      " that another thread of the fused kernel still reads, and " + Name +
                      " keeps one buffer (renaming, --rename-expandable, copies it for the "
                      "readers)");
      if (D->Kind == DependenceKind::Output &&
          (F.MemberHalo[I] > 0 || F.MemberHalo[Position[D->To]] > 0))
        return Reject(Name + " is written by two members and one of them computes halo layers");
    }

  // Traffic after reuse: each (array, version) is loaded once if its first
  // access in F reads it, and stored once if any member writes it.
  std::map<std::pair<unsigned, unsigned>, std::pair<bool, bool>> Traffic; // loaded, stored
  unsigned Radius = 0;
  for (unsigned I = 0; I < F.Members.size(); ++I) {
    unsigned M = F.Members[I];
    const OriginalKernel &K = P.Kernels[M];
    for (unsigned U = 0; U < K.Uses.size(); ++U) {
      auto Key = std::make_pair(K.Uses[U].Array, G.UseVersions[M][U]);
      auto [It, Fresh] = Traffic.try_emplace(Key, K.Uses[U].Reads, false);
      It->second.second |= K.Uses[U].Writes;
    }
    Radius = std::max(Radius, F.MemberHalo[I]);
  }
  F.HaloPoints = haloPoints(First, Radius);
  F.HaloPerThread = (F.HaloPoints + First.threadsPerBlock() - 1) / First.threadsPerBlock();
  // Eq. (10)'s second term, the halo sites' work of members computed over
  // halo layers, as the generated code moves it.
  if (Radius)
    projectHaloPath(F);
  F.StoresLeftOut = storesLeftOut(F);
  for (const auto &[Key, LoadStore] : Traffic) {
    bool Stored = LoadStore.second && std::find(F.StoresLeftOut.begin(), F.StoresLeftOut.end(),
                                                Key.first) == F.StoresLeftOut.end();
    F.ReuseBytes += (LoadStore.first + Stored) * First.sites() * P.Arrays[Key.first].ElementBytes;
  }
  F.RenamingCopyBytes = renamingCopyBytes(F, G, P, First.sites());
  F.Bytes = F.ReuseBytes + F.HaloRingBytes + F.GlobalRoundTripBytes + F.RenamingCopyBytes;

  projectResources(F);
  if (!F.Feasible)
    return F;
  F.MemorySeconds = F.Bytes / (F.Efficiency * Gpu.MemoryBandwidth);
  F.InstructionSeconds = instructionSeconds(F);
  F.ProjectedSeconds =
      std::max(F.MemorySeconds - F.copySeconds(), F.InstructionSeconds) + F.copySeconds();
  if (F.Barriers) {
    // A block at a barrier leaves its slot idle for about one memory
    // latency; the other resident blocks keep loading.
    double Slots = double(Gpu.Multiprocessors) * F.BlocksPerMultiprocessor;
    double Waves = std::ceil(double(First.Blocks) / Slots);
    F.BarrierSeconds = F.Barriers * Waves * Gpu.BarrierLatency / F.BlocksPerMultiprocessor;
    F.ProjectedSeconds += F.BarrierSeconds;
  }
  if (F.Members.size() > 1 && F.ProjectedSeconds >= F.OriginalSum) { // constraint (1.1)
    F.Feasible = false;
    F.Infeasibility = "projected time is not below the original sum";
  }
  return F;
}

} // namespace launchopt
