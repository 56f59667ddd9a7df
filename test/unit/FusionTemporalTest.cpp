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

TEST(TemporalProjection, ChoosesTwoStepsForASevenPointStencil) {
  FusionProblem P = heat(7);
  TemporalProjection T = chooseTemporalSteps(P, 0, 0, Reach3D, 4, testGpu());
  EXPECT_EQ(T.Steps, 2u);
  EXPECT_LT(T.SecondsPerStep, T.OriginalPerStep);
}

TEST(TemporalProjection, WideStencilIsNotFusedOverTime) {
  // 27 points: recomputing them costs more L1 traffic than a step of GMEM.
  FusionProblem P = heat(27);
  TemporalProjection T = chooseTemporalSteps(P, 0, 0, Reach3D, 4, testGpu());
  EXPECT_EQ(T.Steps, 1u);
}

TEST(TemporalProjection, MeasuredOriginalTimeIsTheBar) {
  FusionProblem P = heat(7);
  P.Kernels[0].MeasuredSeconds = 1e-9; // far faster than any projection
  TemporalProjection T = chooseTemporalSteps(P, 0, 0, Reach3D, 4, testGpu());
  EXPECT_EQ(T.Steps, 1u);
}

} // namespace
