#include "Transforms/Fusion/FusionPlan.h"
#include "Transforms/Fusion/ProjectionModel.h"
#include "gtest/gtest.h"

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
