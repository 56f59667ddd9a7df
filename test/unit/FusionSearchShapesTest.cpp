// The search on the instance shapes that crashed it on real programs (issue
// 21): no kernels, one kernel, two kernels with a halo dependence, kernels
// that cannot fuse; and the genetic operators over many random small
// instances.
#include "Transforms/Fusion/Model/GroupingSearch.h"
#include "gtest/gtest.h"
#include <random>

using namespace launchopt;

namespace {

struct Instance {
  FusionProblem P;
  GpuDescription Gpu;
  FusionGraphs G;
  ProjectionModel Model;
  GroupEvaluator Evaluator;
  Instance(FusionProblem Problem)
      : P(std::move(Problem)), Gpu(cantFail(loadGpuDescription(defaultGpuDescriptionPath()))),
        G(buildFusionGraphs(P, true)), Model(P, G, Gpu), Evaluator(Model) {}
};

OriginalKernel kernel(std::string Name, std::vector<ArrayUse> Uses, unsigned Segment = 0) {
  OriginalKernel K;
  K.Name = std::move(Name);
  K.Blocks = 1 << 16;
  K.Segment = Segment;
  K.LaunchConfig = "grid, block";
  K.Uses = std::move(Uses);
  return K;
}

ArrayUse reads(unsigned Array, unsigned Radius = 0) {
  return {Array, true, false, Radius ? 2 * Radius + 1 : 1, Radius};
}
ArrayUse writes(unsigned Array) { return {Array, false, true, 1, 0}; }

bool isPartition(const Grouping &Groups, unsigned N) {
  std::vector<unsigned> Count(N, 0);
  for (const std::vector<unsigned> &F : Groups)
    for (unsigned K : F)
      ++Count[K];
  return std::all_of(Count.begin(), Count.end(), [](unsigned C) { return C == 1; });
}

SearchResult search(const Instance &I, uint64_t Seed = 1) {
  GeneticSearchOptions Options;
  Options.Seed = Seed;
  Options.StallGenerations = 20;
  return GroupingGeneticSearch(I.Evaluator, Options).run();
}

TEST(FusionSearchShapes, NoKernelsGiveTheEmptyPlan) {
  Instance I(FusionProblem{});
  SearchResult R = search(I);
  EXPECT_TRUE(R.Best.empty());
  EXPECT_EQ(R.Seconds, 0);
  GroupingGeneticSearch Search(I.Evaluator, GeneticSearchOptions{});
  EXPECT_TRUE(Search.crossover({}, {}).empty());
  EXPECT_TRUE(Search.mutate({}).empty());
}

TEST(FusionSearchShapes, OneKernelStaysAlone) {
  FusionProblem P;
  P.Arrays = {{"a", 4}, {"b", 4}};
  P.Kernels = {kernel("k", {reads(0, 1), writes(1)})};
  Instance I(std::move(P));
  SearchResult R = search(I);
  EXPECT_EQ(R.Best, Grouping({{0}}));
}

TEST(FusionSearchShapes, TwoKernelsWithAHaloDependence) {
  // The diffusion step: k0 writes b from a, k1 reads b at its neighbours.
  FusionProblem P;
  P.Arrays = {{"a", 4}, {"b", 4}, {"c", 4}};
  P.Kernels = {kernel("k0", {reads(0, 1), writes(1)}), kernel("k1", {reads(1, 1), writes(2)})};
  Instance I(std::move(P));
  SearchResult R = search(I);
  ASSERT_TRUE(isPartition(R.Best, 2));
  EXPECT_TRUE(I.Evaluator.feasible(R.Best));
  EXPECT_EQ(R.Seconds, exactSearch(I.Evaluator)->Seconds);
}

TEST(FusionSearchShapes, NoFeasibleFusionKeepsEveryKernel) {
  // Different segments (a host copy between every launch): nothing fuses.
  FusionProblem P;
  P.Arrays = {{"a", 4}, {"b", 4}};
  P.Kernels = {kernel("k0", {reads(0), writes(1)}, 0), kernel("k1", {reads(1), writes(0)}, 1),
               kernel("k2", {reads(0), writes(1)}, 2)};
  Instance I(std::move(P));
  SearchResult R = search(I);
  EXPECT_EQ(R.Best, Grouping({{0}, {1}, {2}}));
}

// Random instances of 1 to 7 kernels over 1 to 4 arrays with random
// segments, halos and launch configurations: every operator's child is a
// feasible partition and nothing throws (fixed seeds: reproducible).
TEST(FusionSearchShapes, OperatorsKeepRandomSmallInstancesFeasible) {
  for (uint64_t Seed = 1; Seed <= 300; ++Seed) {
    std::mt19937_64 Random(Seed);
    auto Below = [&](unsigned N) { return unsigned(Random() % N); };
    FusionProblem P;
    unsigned Arrays = 1 + Below(4), Kernels = 1 + Below(7);
    for (unsigned A = 0; A < Arrays; ++A)
      P.Arrays.push_back({"a" + std::to_string(A), 4});
    unsigned Segment = 0;
    for (unsigned K = 0; K < Kernels; ++K) {
      Segment += Below(4) == 0;
      OriginalKernel Kernel = kernel("k" + std::to_string(K), {}, Segment);
      Kernel.LaunchConfig = Below(5) ? "grid, block" : "other, block";
      unsigned Written = Below(Arrays);
      for (unsigned A = 0; A < Arrays; ++A)
        if (A == Written)
          Kernel.Uses.push_back(Below(3) ? writes(A) : ArrayUse{A, true, true, 1, 0});
        else if (Below(2))
          Kernel.Uses.push_back(reads(A, Below(3)));
      P.Kernels.push_back(Kernel);
    }
    Instance I(std::move(P));
    GeneticSearchOptions Options;
    Options.Seed = Seed;
    Options.PopulationSize = 6;
    Options.OffspringPerGeneration = 4;
    Options.MaxGenerations = 10;
    GroupingGeneticSearch Search(I.Evaluator, Options);
    Grouping A = Search.randomIndividual(), B = Search.randomIndividual();
    for (int Step = 0; Step < 10; ++Step) {
      ASSERT_TRUE(isPartition(A, Kernels) && I.Evaluator.feasible(A)) << "seed " << Seed;
      Grouping Child = Search.crossover(A, B);
      ASSERT_TRUE(isPartition(Child, Kernels)) << "crossover, seed " << Seed;
      ASSERT_TRUE(I.Evaluator.feasible(Child)) << "crossover, seed " << Seed;
      Grouping Mutant = Search.mutate(Child);
      ASSERT_TRUE(isPartition(Mutant, Kernels)) << "mutation, seed " << Seed;
      ASSERT_TRUE(I.Evaluator.feasible(Mutant)) << "mutation, seed " << Seed;
      B = A;
      A = Mutant;
    }
    SearchResult R = Search.run();
    ASSERT_TRUE(isPartition(R.Best, Kernels)) << "run, seed " << Seed;
    ASSERT_TRUE(I.Evaluator.feasible(R.Best)) << "run, seed " << Seed;
  }
}

} // namespace
