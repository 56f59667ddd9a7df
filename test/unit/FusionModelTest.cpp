#include "Transforms/Fusion/Model/DeadStores.h"
#include "Transforms/Fusion/Model/FusionPlan.h"
#include "Transforms/Fusion/Model/GroupingSearch.h"
#include "Transforms/Fusion/Model/HaloTile.h"
#include "Transforms/Fusion/Model/ProjectionModel.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"
#include <algorithm>

using namespace launchopt;

namespace {

GpuDescription testGpu() {
  llvm::Expected<GpuDescription> G = loadGpuDescription(defaultGpuDescriptionPath());
  EXPECT_TRUE(static_cast<bool>(G)) << llvm::toString(G.takeError());
  return *G;
}

// Builds kernels from "name: a:r1 b:w c:rw" lines: r<radius> reads with that
// stencil radius (thread load 1 + 4 * radius), w writes, rw updates.
FusionProblem problem(std::vector<std::string> Lines) {
  FusionProblem P;
  std::map<std::string, unsigned> Ids;
  for (const std::string &Line : Lines) {
    llvm::SmallVector<llvm::StringRef> Words;
    llvm::StringRef(Line).split(Words, ' ', -1, false);
    OriginalKernel K;
    K.Name = Words.front().drop_back().str();
    K.BlockDim[0] = 32;
    K.BlockDim[1] = 8;
    K.Blocks = 4096;
    K.LaunchConfig = "g, b";
    for (llvm::StringRef W : llvm::ArrayRef(Words).drop_front()) {
      auto [Name, Access] = W.split(':');
      if (!Ids.count(Name.str())) {
        Ids[Name.str()] = P.Arrays.size();
        P.Arrays.push_back({Name.str(), 8});
      }
      ArrayUse U;
      U.Array = Ids[Name.str()];
      U.Writes = Access.contains('w');
      U.Reads = Access.starts_with("r");
      if (Access.size() == 2 && Access[0] == 'r' && std::isdigit(Access[1])) {
        U.HaloRadius = Access[1] - '0';
        U.ThreadLoad = 1 + 4 * U.HaloRadius;
      }
      K.Uses.push_back(U);
    }
    P.Kernels.push_back(K);
  }
  return P;
}

TEST(FusionModel, SimpleFusionLoadsSharedReadOnlyArrayOnce) {
  FusionProblem P = problem({"k0: a:r0 b:w", "k1: a:r0 c:w"});
  GpuDescription Gpu = testGpu();
  FusionGraphs G = buildFusionGraphs(P, false);
  ProjectionModel Model(P, G, Gpu);
  NewKernelProjection F = Model.project({0, 1});
  ASSERT_TRUE(F.Feasible) << F.Infeasibility;
  EXPECT_FALSE(F.Complex);
  ASSERT_EQ(F.Pivot.size(), 1u);
  EXPECT_EQ(P.Arrays[F.Pivot[0]].Name, "a");
  double Sites = 4096.0 * 256;
  // a once, b and c stored: 3 arrays instead of 4.
  EXPECT_DOUBLE_EQ(F.Bytes, 3 * Sites * 8);
  EXPECT_LT(F.ProjectedSeconds, F.OriginalSum);
  EXPECT_DOUBLE_EQ(F.OriginalSum, Model.originalSeconds(0) + Model.originalSeconds(1));
}

TEST(FusionModel, NeighbourReadOfEarlierResultNeedsHaloLayers) {
  FusionProblem P = problem({"k0: a:r0 t:w", "k1: t:r1 u:w", "k2: u:r1 v:w"});
  FusionGraphs G = buildFusionGraphs(P, false);
  GpuDescription Gpu = testGpu();
  ProjectionModel Model(P, G, Gpu);
  NewKernelProjection F = Model.project({0, 1, 2});
  ASSERT_TRUE(F.Complex);
  // k2 reads u at radius 1, so k1 covers one extra layer; k1 reads t at
  // radius 1 from there, so k0 covers two.
  EXPECT_EQ(F.MemberHalo, (std::vector<unsigned>{2, 1, 0}));
  EXPECT_EQ(F.HaloPoints, (32u + 4) * (8 + 4) - 256);
  EXPECT_EQ(F.HaloPerThread, 1u);
}

TEST(FusionModel, OverwritingWhatAnotherThreadStillReadsIsInfeasible) {
  FusionProblem P = problem({"k0: a:r1 b:w", "k1: a:w"});
  FusionGraphs G = buildFusionGraphs(P, false);
  GpuDescription Gpu = testGpu();
  ProjectionModel Model(P, G, Gpu);
  NewKernelProjection F = Model.project({0, 1});
  EXPECT_FALSE(F.Feasible);
  EXPECT_NE(F.Infeasibility.find("overwrites a"), std::string::npos) << F.Infeasibility;
}

TEST(FusionModel, KernelsOnAPathBetweenMembersMustJoin) {
  FusionProblem P = problem({"k0: a:w", "k1: a:r0 b:w", "k2: b:r0 a:r0 c:w"});
  FusionGraphs G = buildFusionGraphs(P, false);
  GpuDescription Gpu = testGpu();
  ProjectionModel Model(P, G, Gpu);
  NewKernelProjection F = Model.project({0, 2});
  EXPECT_FALSE(F.Feasible);
  EXPECT_NE(F.Infeasibility.find("'k1' lies on a precedence path"), std::string::npos);
  EXPECT_TRUE(Model.project({0, 1, 2}).Feasible);
}

TEST(FusionModel, KernelsWithoutSharedDataAreNotKin) {
  FusionProblem P = problem({"k0: a:r0 b:w", "k1: c:r0 d:w"});
  FusionGraphs G = buildFusionGraphs(P, false);
  GpuDescription Gpu = testGpu();
  ProjectionModel Model(P, G, Gpu);
  NewKernelProjection F = Model.project({0, 1});
  EXPECT_FALSE(F.Feasible);
  EXPECT_NE(F.Infeasibility.find("kinship"), std::string::npos);
}

TEST(FusionModel, SegmentsAndLaunchConfigurationsSeparateKernels) {
  FusionProblem P = problem({"k0: a:r0 b:w", "k1: a:r0 c:w", "k2: a:r0 d:w"});
  P.Kernels[1].Segment = 1;
  P.Kernels[2].LaunchConfig = "other";
  FusionGraphs G = buildFusionGraphs(P, false);
  GpuDescription Gpu = testGpu();
  ProjectionModel Model(P, G, Gpu);
  EXPECT_NE(Model.project({0, 1}).Infeasibility.find("host copy"), std::string::npos);
  EXPECT_NE(Model.project({0, 2}).Infeasibility.find("launch configurations"), std::string::npos);
}

TEST(FusionModel, RegisterCapacityBoundsNewKernels) {
  FusionProblem P = problem({"k0: a:r0 b:w", "k1: a:r0 c:w"});
  P.Kernels[1].Registers = 250;
  P.Kernels[0].Uses[0].ThreadLoad = 40;
  FusionGraphs G = buildFusionGraphs(P, false);
  GpuDescription Gpu = testGpu();
  ProjectionModel Model(P, G, Gpu);
  NewKernelProjection F = Model.project({0, 1});
  EXPECT_FALSE(F.Feasible);
  EXPECT_NE(F.Infeasibility.find("registers per thread"), std::string::npos) << F.Infeasibility;
}

TEST(FusionModel, SharedMemoryCapacityLowersBlockingFactor) {
  // Eqs. (7)-(8): staging more pivot arrays leaves fewer blocks and a lower
  // blocking factor.
  std::vector<std::string> Two = {"k0: a:r0 b:r0 x:w", "k1: a:r0 b:r0 y:w"};
  std::vector<std::string> Eight = {"k0: a:r0 b:r0 c:r0 d:r0 e:r0 f:r0 g:r0 h:r0 x:w",
                                    "k1: a:r0 b:r0 c:r0 d:r0 e:r0 f:r0 g:r0 h:r0 y:w"};
  GpuDescription Gpu = testGpu();
  FusionProblem P2 = problem(Two), P8 = problem(Eight);
  FusionGraphs G2 = buildFusionGraphs(P2, false), G8 = buildFusionGraphs(P8, false);
  ProjectionModel M2(P2, G2, Gpu), M8(P8, G8, Gpu);
  NewKernelProjection F2 = M2.project({0, 1}), F8 = M8.project({0, 1});
  EXPECT_GT(F8.SharedMemoryPerBlock, F2.SharedMemoryPerBlock);
  EXPECT_LT(F8.BlockingFactor, F2.BlockingFactor);
}

// The same fusion, k1 reading t at the given radius.
NewKernelProjection producerConsumer(unsigned Radius, unsigned K1SharedMemory = 0,
                                     bool OnChip = true) {
  FusionProblem P = problem({"k0: a:r0 t:w", "k1: t:r" + std::to_string(Radius) + " u:w"});
  P.Kernels[1].SharedMemoryBytes = K1SharedMemory;
  FusionGraphs G = buildFusionGraphs(P, false);
  GpuDescription Gpu = testGpu();
  return ProjectionModel(P, G, Gpu, OnChip).project({0, 1});
}

TEST(FusionModel, HaloTileFusionCostsMoreThanWithoutNeighbourDependence) {
  NewKernelProjection Own = producerConsumer(0), Halo = producerConsumer(1);
  ASSERT_TRUE(Own.Feasible) << Own.Infeasibility;
  EXPECT_TRUE(Own.HaloArrays.empty());
  EXPECT_EQ(Own.Barriers, 0u);
  ASSERT_EQ(Halo.HaloArrays.size(), 1u);
  EXPECT_TRUE(Halo.HaloArrays[0].SharedTile);
  // A 34 x 10 tile of doubles plus one flag byte per site.
  EXPECT_EQ(Halo.TileSharedMemory, 34u * 10 * 9);
  // k0 loads a over the ring of 34 * 10 - 256 sites per block; t goes to
  // the tile, not GMEM.
  double Sites = 4096.0 * 256;
  EXPECT_DOUBLE_EQ(Halo.HaloRingBytes, Sites * (34 * 10 - 256) / 256 * 8);
  EXPECT_DOUBLE_EQ(Halo.GlobalRoundTripBytes, 0);
  EXPECT_DOUBLE_EQ(Halo.ReuseBytes, Own.Bytes);
  EXPECT_EQ(Halo.Barriers, 1u);
  EXPECT_GT(Halo.BarrierSeconds, 0);
  EXPECT_GT(Halo.ProjectedSeconds, Own.ProjectedSeconds);
  EXPECT_DOUBLE_EQ(Halo.seconds(Halo.ReuseBytes) + Halo.seconds(Halo.HaloRingBytes) +
                       Halo.BarrierSeconds,
                   Halo.ProjectedSeconds);
}

TEST(FusionModel, WiderHaloCostsMore) {
  NewKernelProjection R1 = producerConsumer(1), R2 = producerConsumer(2), R3 = producerConsumer(3);
  EXPECT_LT(R1.HaloRingBytes, R2.HaloRingBytes);
  EXPECT_LT(R2.HaloRingBytes, R3.HaloRingBytes);
  EXPECT_LT(R1.TileSharedMemory, R2.TileSharedMemory);
  EXPECT_LT(R1.ProjectedSeconds, R2.ProjectedSeconds);
  EXPECT_LT(R2.ProjectedSeconds, R3.ProjectedSeconds);
}

TEST(FusionModel, TileSharedMemoryLowersOccupancy) {
  // 36000 B of the members' own shared memory leave 6 blocks per
  // multiprocessor; the tile on top leaves 5.
  NewKernelProjection Own = producerConsumer(0, 36000), Halo = producerConsumer(1, 36000);
  EXPECT_EQ(Own.BlocksPerMultiprocessor, 6u);
  EXPECT_DOUBLE_EQ(Halo.SharedMemoryPerBlock, (1 + 1.0 / 32) * 34 * 10 * 9 + 36000);
  EXPECT_EQ(Halo.BlocksPerMultiprocessor, 5u);
}

TEST(FusionModel, TileBeyondSharedMemoryGoesThroughGmemAndIsCharged) {
  // Two radius-9 tiles of a 64 x 16 block (82 x 34 doubles each) exceed
  // the 48 KiB a block declares: the second array keeps the GMEM path and
  // pays the round trip (halo stores and the consumer's reload).
  FusionProblem P = problem({"k0: a:r0 s:w t:w", "k1: s:r9 t:r9 u:w"});
  for (OriginalKernel &K : P.Kernels) {
    K.BlockDim[0] = 64;
    K.BlockDim[1] = 16;
    K.Blocks = 1024;
  }
  FusionGraphs G = buildFusionGraphs(P, false);
  GpuDescription Gpu = testGpu();
  NewKernelProjection F = ProjectionModel(P, G, Gpu).project({0, 1});
  ASSERT_EQ(F.HaloArrays.size(), 2u);
  EXPECT_GT(2 * haloTile(P.Kernels[0].BlockDim, 9).bytes(8), HaloTileSharedLimit);
  EXPECT_TRUE(F.HaloArrays[0].SharedTile);
  EXPECT_FALSE(F.HaloArrays[1].SharedTile);
  EXPECT_EQ(F.HaloArrays[1].Why, "the tile does not fit in shared memory");
  EXPECT_EQ(F.TileSharedMemory, 82u * 34 * 9);
  EXPECT_GT(F.GlobalRoundTripBytes, 0);
  // Everything through GMEM (--on-chip=false) round-trips both arrays.
  NewKernelProjection Gmem = ProjectionModel(P, G, Gpu, false).project({0, 1});
  EXPECT_EQ(Gmem.TileSharedMemory, 0u);
  EXPECT_DOUBLE_EQ(Gmem.GlobalRoundTripBytes, 2 * F.GlobalRoundTripBytes);
  EXPECT_GT(Gmem.ProjectedSeconds, F.ProjectedSeconds);
}

TEST(FusionModel, MembersSharedMemoryLeavesNoRoomForTheTile) {
  // 47000 B of k1's own shared memory plus a 3060 B tile exceed 48 KiB.
  NewKernelProjection F = producerConsumer(1, 47000), Fits = producerConsumer(1, 40000);
  ASSERT_EQ(F.HaloArrays.size(), 1u);
  EXPECT_FALSE(F.HaloArrays[0].SharedTile);
  EXPECT_EQ(F.TileSharedMemory, 0u);
  EXPECT_GT(F.GlobalRoundTripBytes, 0);
  EXPECT_TRUE(Fits.HaloArrays[0].SharedTile);
  EXPECT_GT(F.Bytes, Fits.Bytes);
}

TEST(FusionModel, StencilTestBedSearchDoesNotPreferAllHaloPlan) {
  auto Buffer = llvm::MemoryBuffer::getFile(LAUNCHOPT_FUSION_TESTBED "/problem.json");
  ASSERT_TRUE(static_cast<bool>(Buffer));
  llvm::Expected<FusionProblem> P =
      problemFromJson(cantFail(llvm::json::parse((*Buffer)->getBuffer())));
  ASSERT_TRUE(static_cast<bool>(P));
  auto Read = [&](const char *Plan) {
    auto B = llvm::MemoryBuffer::getFile(std::string(LAUNCHOPT_FUSION_TESTBED "/") + Plan);
    EXPECT_TRUE(static_cast<bool>(B));
    return cantFail(groupingFromPlanJson(cantFail(llvm::json::parse((*B)->getBuffer())), *P));
  };
  FusionGraphs G = buildFusionGraphs(*P, false);
  GpuDescription Gpu = testGpu();
  ProjectionModel Model(*P, G, Gpu);
  FusionPlan AllHalo = makeFusionPlan(Model, Read("halo-plan.json"));
  FusionPlan Search = makeFusionPlan(Model, Read("gpu-plan.json"));
  for (const NewKernelProjection &F : AllHalo.NewKernels) {
    EXPECT_GT(F.HaloPoints, 0u);
    EXPECT_GT(F.HaloRingBytes, 0);
    // A barrier before a tile's readers, unless every halo producer is
    // recomputed at its readers' few neighbours.
    bool Recomputed = std::all_of(F.HaloArrays.begin(), F.HaloArrays.end(),
                                  [](const HaloArrayPath &H) { return H.RecomputedNeighbours; });
    EXPECT_TRUE(F.Barriers > 0 || Recomputed);
  }
  EXPECT_GT(AllHalo.ProjectedSeconds, Search.ProjectedSeconds);
  GroupEvaluator Evaluator(Model);
  std::optional<SearchResult> Best = exactSearch(Evaluator);
  ASSERT_TRUE(Best.has_value());
  EXPECT_NE(Best->Best, canonicalGrouping(Evaluator, Read("halo-plan.json")));
  EXPECT_LE(Best->Seconds, Search.ProjectedSeconds * (1 + 1e-9));
}

TEST(FusionModel, FewNeighbourReadsRecomputeWithoutTileOrBarrier) {
  // k1 reads t at its own site and one neighbour: k0 runs again there in
  // registers; a limit of 0 neighbours gives the tile back.
  FusionProblem P = problem({"k0: a:r0 t:w", "k1: t:r1 u:w"});
  P.Kernels[1].Uses[0].ThreadLoad = 2;
  FusionGraphs G = buildFusionGraphs(P, false);
  GpuDescription Gpu = testGpu();
  ProjectionModel Model(P, G, Gpu);
  NewKernelProjection F = Model.project({0, 1});
  ASSERT_EQ(F.HaloArrays.size(), 1u);
  EXPECT_FALSE(F.HaloArrays[0].SharedTile);
  EXPECT_EQ(F.HaloArrays[0].RecomputedNeighbours, 1u);
  EXPECT_EQ(F.TileSharedMemory, 0u);
  EXPECT_EQ(F.Barriers, 0u);
  EXPECT_DOUBLE_EQ(F.GlobalRoundTripBytes, 0);
  // Only k0's loads of a at the ring; its results there stay in registers.
  double Sites = 4096.0 * 256;
  EXPECT_DOUBLE_EQ(F.HaloRingBytes, Sites * (34 * 10 - 256) / 256 * 8);
  Model.setRecomputedNeighbours(0);
  NewKernelProjection Tiled = Model.project({0, 1});
  EXPECT_TRUE(Tiled.HaloArrays[0].SharedTile);
  EXPECT_EQ(Tiled.Barriers, 1u);
  EXPECT_LT(F.ProjectedSeconds, Tiled.ProjectedSeconds);
}

TEST(FusionGraphs, InPlaceUpdateAfterReadersStartsAVersion) {
  // k1 updates j in place after k0 read it at neighbours: relaxed, j has
  // two versions and k1 need not wait for k0 on j (g still orders them).
  FusionProblem P = problem({"k0: j:r1 g:w", "k1: j:rw h:w", "k2: g:r0 h:r0"});
  FusionGraphs Strict = buildFusionGraphs(P, false);
  FusionGraphs Relaxed = buildFusionGraphs(P, true);
  EXPECT_EQ(Strict.VersionCount[0], 1u);
  EXPECT_TRUE(Strict.Successors[0].test(1));
  EXPECT_EQ(Relaxed.VersionCount[0], 2u);
  EXPECT_FALSE(Relaxed.Successors[0].test(1));
  // An update of what an earlier kernel wrote reads that version: no split.
  FusionProblem Written = problem({"k0: j:w", "k1: j:rw"});
  EXPECT_EQ(buildFusionGraphs(Written, true).VersionCount[0], 1u);
  // Nor an update that reads its neighbours.
  FusionProblem Stencil = problem({"k0: j:r0 g:w", "k1: j:r1 j:w"});
  EXPECT_EQ(buildFusionGraphs(Stencil, true).VersionCount[0], 1u);
}

TEST(FusionModel, InPlaceUpdateFusedWithNeighbourReaderPaysTheCopy) {
  FusionProblem P = problem({"k0: j:r1 g:w", "k1: j:rw g:r0"});
  GpuDescription Gpu = testGpu();
  FusionGraphs Strict = buildFusionGraphs(P, false), Relaxed = buildFusionGraphs(P, true);
  NewKernelProjection Apart = ProjectionModel(P, Strict, Gpu).project({0, 1});
  EXPECT_FALSE(Apart.Feasible);
  EXPECT_NE(Apart.Infeasibility.find("j keeps one buffer"), std::string::npos);
  // Renamed, j's copy (a load and a store per site) outweighs the one load
  // of g that fusion saves.
  NewKernelProjection F = ProjectionModel(P, Relaxed, Gpu).project({0, 1});
  double Sites = 4096.0 * 256;
  EXPECT_DOUBLE_EQ(F.RenamingCopyBytes, 2 * Sites * 8);
  EXPECT_DOUBLE_EQ(F.Bytes - F.HaloRingBytes, 6 * Sites * 8);
  EXPECT_EQ(F.Infeasibility, "projected time is not below the original sum");
}

TEST(FusionGraphs, ExpandableArrayRenamingDropsPrecedence) {
  FusionProblem P = problem({"k0: q:w", "k1: q:r0 x:w", "k2: q:w", "k3: q:r0 y:w"});
  FusionGraphs Strict = buildFusionGraphs(P, false);
  FusionGraphs Relaxed = buildFusionGraphs(P, true);
  EXPECT_EQ(Strict.Intents[0], ArrayIntent::ExpandableReadWrite);
  EXPECT_TRUE(Strict.Successors[1].test(2));
  EXPECT_FALSE(Relaxed.Successors[1].test(2));
  EXPECT_FALSE(Relaxed.Descendants[0].test(3));
  EXPECT_EQ(Relaxed.VersionCount[0], 2u);
}

TEST(FusionGraphs, RenamingRelaxesOnlyTheArraysAllowed) {
  // q and s are both expandable; only s may be renamed (code generation
  // refused q), so q's precedence k1 -> k2 stays and s's k1 -> k2 goes.
  FusionProblem P = problem({"k0: q:w s:w", "k1: q:r0 s:r0 x:w", "k2: q:w", "k3: s:w"});
  FusionGraphs G = buildFusionGraphs(P, std::vector<bool>{false, true, false});
  EXPECT_EQ(G.Intents[0], ArrayIntent::ExpandableReadWrite);
  EXPECT_EQ(G.Intents[1], ArrayIntent::ExpandableReadWrite);
  EXPECT_EQ(G.VersionCount[0], 1u);
  EXPECT_EQ(G.VersionCount[1], 2u);
  EXPECT_TRUE(G.Successors[1].test(2));
  EXPECT_FALSE(G.Successors[1].test(3));
}

TEST(FusionGraphs, DotListsArraysByIntent) {
  FusionProblem P = problem({"k0: a:r0 b:w", "k1: b:r1 c:w"});
  FusionGraphs G = buildFusionGraphs(P, false);
  std::string Dot;
  llvm::raw_string_ostream OS(Dot);
  writeDataDependencyDot(OS, P, G);
  EXPECT_NE(Dot.find("label=\"a\", tooltip=\"read-only\""), std::string::npos) << Dot;
  EXPECT_NE(Dot.find("label=\"b\", tooltip=\"read-write\""), std::string::npos);
  EXPECT_NE(Dot.find("label=\"c\", tooltip=\"write-only\""), std::string::npos);
  EXPECT_NE(Dot.find("a1 -> k1 [label=\"thread load 5, radius 1\"]"), std::string::npos);
}

TEST(FusionProblem, JsonRoundTrip) {
  FusionProblem P = problem({"k0: a:r2 b:w", "k1: b:rw"});
  P.Kernels[1].MeasuredSeconds = 1e-5;
  llvm::Expected<FusionProblem> Back = problemFromJson(toJson(P));
  ASSERT_TRUE(static_cast<bool>(Back));
  ASSERT_EQ(Back->Kernels.size(), 2u);
  EXPECT_EQ(Back->Kernels[0].Uses[0].HaloRadius, 2u);
  EXPECT_TRUE(Back->Kernels[1].Uses[0].Reads && Back->Kernels[1].Uses[0].Writes);
  EXPECT_DOUBLE_EQ(Back->Kernels[1].MeasuredSeconds, 1e-5);
  EXPECT_EQ(Back->Kernels[0].BlockDim[1], 8u);
}

TEST(GpuDescription, MissingBandwidthIsAnError) {
  llvm::Expected<GpuDescription> G =
      parseGpuDescription(R"({"multiprocessors": 132, "registers_per_multiprocessor": 65536,
                              "shared_memory_per_multiprocessor": 233472})");
  EXPECT_FALSE(static_cast<bool>(G));
  llvm::consumeError(G.takeError());
}

} // namespace

namespace {

// Marks array Name of P scratch and every write of it as one at every site.
void scratch(FusionProblem &P, const std::string &Name) {
  for (unsigned A = 0; A < P.Arrays.size(); ++A)
    if (P.Arrays[A].Name == Name) {
      P.Arrays[A].Scratch = true;
      for (OriginalKernel &K : P.Kernels)
        for (ArrayUse &U : K.Uses)
          U.WritesEverySite |= U.Array == A && U.Writes;
    }
}

} // namespace

TEST(FusionModel, ScratchArrayProducedAndReadOnChipIsNotStored) {
  FusionProblem P = problem({"k0: a:r0 t:w", "k1: t:r0 b:w"});
  scratch(P, "t");
  GpuDescription Gpu = testGpu();
  FusionGraphs G = buildFusionGraphs(P, false);
  ProjectionModel Model(P, G, Gpu);
  NewKernelProjection F = Model.project({0, 1});
  ASSERT_TRUE(F.Feasible) << F.Infeasibility;
  EXPECT_EQ(F.StoresLeftOut, std::vector<unsigned>{1});
  // a loaded, b stored; t neither loaded nor stored.
  EXPECT_DOUBLE_EQ(F.ReuseBytes, 2 * P.Kernels[0].sites() * 8);
}

TEST(FusionModel, StoresKeptWhereSomethingElseMayLoadThem) {
  GpuDescription Gpu = testGpu();
  // Not scratch: the host may read it.
  FusionProblem Host = problem({"k0: a:r0 t:w", "k1: t:r0 b:w"});
  EXPECT_FALSE(storesDroppable(Host, {0, 1}, 1));
  // A kernel outside the new kernel reads it.
  FusionProblem Outside = problem({"k0: a:r0 t:w", "k1: t:r0 b:w", "k2: t:r0 c:w"});
  scratch(Outside, "t");
  EXPECT_FALSE(storesDroppable(Outside, {0, 1}, 1));
  EXPECT_TRUE(storesDroppable(Outside, {0, 1, 2}, 1));
  // Read before the new kernel writes it: last round's values.
  FusionProblem Before = problem({"k0: t:r0 b:w", "k1: a:r0 t:w"});
  scratch(Before, "t");
  EXPECT_FALSE(storesDroppable(Before, {0, 1}, 0));
  // Written at some sites only: a reader elsewhere loads an older store.
  FusionProblem Partial = problem({"k0: a:r0 t:w", "k1: t:r0 b:w"});
  scratch(Partial, "t");
  Partial.Kernels[0].Uses[1].WritesEverySite = false;
  EXPECT_FALSE(storesDroppable(Partial, {0, 1}, 1));
  // Read at a neighbour through GMEM (no tile: the block is not constant).
  // With a constant block the neighbour is recomputed on chip instead.
  FusionProblem Neighbour = problem({"k0: a:r0 t:w", "k1: t:r1 b:w"});
  scratch(Neighbour, "t");
  FusionGraphs G = buildFusionGraphs(Neighbour, false);
  ProjectionModel OnChip(Neighbour, G, Gpu);
  EXPECT_EQ(OnChip.project({0, 1}).StoresLeftOut, std::vector<unsigned>{1});
  for (OriginalKernel &K : Neighbour.Kernels)
    K.ConstantBlock = false;
  ProjectionModel Global(Neighbour, G, Gpu);
  EXPECT_TRUE(Global.project({0, 1}).StoresLeftOut.empty());
}
