#include "Transforms/Fusion/Model/TemporalProjection.h"
#include "gtest/gtest.h"

using namespace launchopt;

namespace {

GpuDescription testGpu() {
  llvm::Expected<GpuDescription> G = loadGpuDescription(defaultGpuDescriptionPath());
  EXPECT_TRUE(static_cast<bool>(G)) << llvm::toString(G.takeError());
  return *G;
}

// A heat step: reads `in` at Load points and `power` at the site, writes
// `out`; 32x8x1 blocks.
FusionProblem heat(unsigned Load) {
  FusionProblem P;
  P.Arrays = {{"in", 4}, {"out", 4}, {"power", 4}};
  OriginalKernel K;
  K.Name = "heat_step";
  K.BlockDim[0] = 32;
  K.BlockDim[1] = 8;
  K.Blocks = 1 << 16;
  ArrayUse In{0, true, false, Load, 1}, Out{1, false, true}, Power{2, true, false};
  K.Uses = {In, Out, Power};
  P.Kernels.push_back(K);
  return P;
}

const unsigned Reach3D[3] = {1, 1, 1};

TEST(TemporalProjection, GroupMovesOneStepOfGlobalMemory) {
  FusionProblem P = heat(7);
  GpuDescription Gpu = testGpu();
  TemporalProjection One = projectTemporalFusion(P, 0, 0, Reach3D, 1, Gpu);
  TemporalProjection Two = projectTemporalFusion(P, 0, 0, Reach3D, 2, Gpu);
  EXPECT_DOUBLE_EQ(One.GlobalBytes, Two.GlobalBytes);
  EXPECT_DOUBLE_EQ(One.RecomputedBytes, 0);
  // Two steps evaluate the first step at the 7 stencil points, 8 loads each.
  EXPECT_DOUBLE_EQ(Two.RecomputedBytes, P.Kernels[0].sites() * 7 * 8 * 4);
  EXPECT_GT(Two.CacheBytes, One.CacheBytes);
}

// heat3d as run on the H100 (bench/results/fusion/programs/run-h100.log):
// 512 x 512 x 64 cells, a thread per cell in 32x8x1 blocks. Its original
// step took 0.0848 ms; fused over 2 steps by register recomputation, a
// launch took 2 x 0.4085 ms, 4.8 times a step's time per step.
FusionProblem measuredHeat3d() {
  FusionProblem P = heat(7);
  P.Kernels[0].Blocks = 512 / 32 * (512 / 8) * 64;
  return P;
}

TEST(TemporalProjection, Heat3dAsMeasuredIsNotFusedOverTime) {
  FusionProblem P = measuredHeat3d();
  GpuDescription Gpu = testGpu();
  TemporalProjection T = chooseTemporalSteps(P, 0, 0, Reach3D, 4, Gpu);
  EXPECT_EQ(T.Steps, 1u);
  // The same with the measured original step as the bar.
  P.Kernels[0].MeasuredSeconds = 0.0848e-3;
  EXPECT_EQ(chooseTemporalSteps(P, 0, 0, Reach3D, 4, Gpu).Steps, 1u);
}

TEST(TemporalProjection, TwoStepsOfHeat3dAreProjectedSlowerPerStep) {
  FusionProblem P = measuredHeat3d();
  P.Kernels[0].MeasuredSeconds = 0.0848e-3;
  GpuDescription Gpu = testGpu();
  TemporalProjection Two = projectTemporalFusion(P, 0, 0, Reach3D, 2, Gpu);
  // Measured: 0.4085 ms per step against 0.0848 ms. The recomputed
  // evaluations bound the group, not GMEM or the cone's L2 traffic.
  EXPECT_GT(Two.SecondsPerStep, 4 * Two.OriginalPerStep);
  EXPECT_DOUBLE_EQ(Two.Seconds, Two.RecomputedBytes / Gpu.RecomputeBandwidth);
  // The H100's description reproduces the launch it was calibrated from.
  EXPECT_NEAR(Two.Seconds, 2 * 0.4085e-3, 0.02 * 2 * 0.4085e-3);
}

TEST(TemporalProjection, ChoosesTwoStepsWhenRecomputationIsCheap) {
  // A GPU whose recomputation costs nothing: the group's single pass over
  // GMEM against the cone's L2 traffic decides.
  FusionProblem P = measuredHeat3d();
  GpuDescription Gpu = testGpu();
  Gpu.RecomputeBandwidth = 1e18;
  TemporalProjection T = chooseTemporalSteps(P, 0, 0, Reach3D, 4, Gpu);
  EXPECT_EQ(T.Steps, 2u);
  EXPECT_LT(T.SecondsPerStep, T.OriginalPerStep);
}

TEST(TemporalProjection, TilesEvaluateLessThanRegistersButHeat3dStaysUnfused) {
  FusionProblem P = measuredHeat3d();
  GpuDescription Gpu = testGpu();
  TemporalProjection Registers = projectTemporalFusion(P, 0, 0, Reach3D, 2, Gpu);
  TemporalProjection Tiles = projectTemporalTiles(P, 0, 0, Reach3D, 2, Gpu);
  // A 32x8x1 block evaluates step 1 over 34x10x3 sites and step 2 over its
  // own 256: about 4 evaluations beyond one per site (registers: 7), each
  // with 8 loads of 4 bytes.
  EXPECT_DOUBLE_EQ(Tiles.RecomputedBytes, P.Kernels[0].Blocks * (34.0 * 10 * 3) * 8 * 4);
  EXPECT_LT(Tiles.RecomputedBytes, Registers.RecomputedBytes);
  EXPECT_DOUBLE_EQ(Tiles.TileBytes, 2 * 34.0 * 10 * 3 * (4 + 1));
  EXPECT_GT(Tiles.BarrierSeconds, 0);
  // A block one plane deep recomputes its two neighbour planes: at the
  // measured rate of recomputation still slower than the original.
  EXPECT_GT(Tiles.SecondsPerStep, Tiles.OriginalPerStep);
  EXPECT_EQ(chooseTemporalSteps(P, 0, 0, Reach3D, 4, Gpu, true).Steps, 1u);
}

TEST(TemporalProjection, TilesBeyondTheDynamicSharedMemoryAreInfeasible) {
  FusionProblem P = measuredHeat3d();
  P.Kernels[0].BlockDim[1] = 32; // 32x32x1 blocks: 4 steps need 38x38x7 cells twice
  TemporalProjection T = projectTemporalTiles(P, 0, 0, Reach3D, 4, testGpu());
  EXPECT_FALSE(T.Feasible);
  EXPECT_NE(T.Infeasibility.find("shared memory"), std::string::npos);
}

TEST(TemporalProjection, WideStencilIsNotFusedOverTime) {
  // 27 points: recomputing them costs more than a step of GMEM even on a GPU
  // that recomputes at 30 TB/s, the L1 caches' bandwidth.
  FusionProblem P = heat(27);
  GpuDescription Gpu = testGpu();
  Gpu.RecomputeBandwidth = 30e12;
  TemporalProjection T = chooseTemporalSteps(P, 0, 0, Reach3D, 4, Gpu);
  EXPECT_EQ(T.Steps, 1u);
}

TEST(TemporalProjection, MeasuredOriginalTimeIsTheBar) {
  FusionProblem P = heat(7);
  P.Kernels[0].MeasuredSeconds = 1e-9; // far faster than any projection
  TemporalProjection T = chooseTemporalSteps(P, 0, 0, Reach3D, 4, testGpu());
  EXPECT_EQ(T.Steps, 1u);
}

} // namespace
