#include "Transforms/Fusion/Model/GroupingSearch.h"
#include "Transforms/Fusion/Model/SyntheticPrograms.h"
#include "gtest/gtest.h"

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

FusionProblem synthetic(unsigned Kernels, unsigned Arrays, uint64_t Seed) {
  SyntheticProgramSpec Spec;
  Spec.Kernels = Kernels;
  Spec.Arrays = Arrays;
  Spec.DataCopies = 1;
  Spec.SharingSetSize = 4;
  Spec.ThreadLoad = 4;
  Spec.Seed = Seed;
  return generateSyntheticProgram(Spec);
}

// Every kernel in exactly one group.
bool isPartition(const Grouping &Groups, unsigned N) {
  std::vector<unsigned> Count(N, 0);
  for (const std::vector<unsigned> &F : Groups)
    for (unsigned K : F)
      ++Count[K];
  return std::all_of(Count.begin(), Count.end(), [](unsigned C) { return C == 1; });
}

TEST(FusionSearch, EveryChildChromosomeIsFeasible) {
  for (uint64_t Seed = 1; Seed <= 5; ++Seed) {
    Instance I(synthetic(40, 40, Seed));
    GeneticSearchOptions Options;
    Options.Seed = Seed;
    GroupingGeneticSearch Search(I.Evaluator, Options);
    Grouping A = Search.randomIndividual(), B = Search.randomIndividual();
    for (int Step = 0; Step < 40; ++Step) {
      ASSERT_TRUE(isPartition(A, 40) && I.Evaluator.feasible(A));
      Grouping Child = Search.crossover(A, B);
      ASSERT_TRUE(isPartition(Child, 40)) << "crossover, seed " << Seed;
      ASSERT_TRUE(I.Evaluator.feasible(Child)) << "crossover, seed " << Seed;
      Grouping Mutant = Search.mutate(Child);
      ASSERT_TRUE(isPartition(Mutant, 40)) << "mutation, seed " << Seed;
      ASSERT_TRUE(I.Evaluator.feasible(Mutant)) << "mutation, seed " << Seed;
      B = A;
      A = Mutant;
    }
  }
}

TEST(FusionSearch, RepairBreaksPrecedenceCycles) {
  // k0 -> k1 and k2 -> k3 through arrays; grouping {k0, k3} {k1, k2} is a
  // cycle once contracted.
  FusionProblem P;
  P.Arrays = {{"a", 8}, {"b", 8}, {"s", 8}, {"t", 8}};
  auto Kernel = [](std::string Name, std::vector<ArrayUse> Uses) {
    OriginalKernel K;
    K.Name = std::move(Name);
    K.Blocks = 1024;
    K.Uses = std::move(Uses);
    return K;
  };
  P.Kernels = {Kernel("k0", {{0, false, true, 1, 0}, {2, true, false, 1, 0}}),
               Kernel("k1", {{0, true, false, 1, 0}, {3, true, false, 1, 0}}),
               Kernel("k2", {{1, false, true, 1, 0}, {3, true, false, 1, 0}}),
               Kernel("k3", {{1, true, false, 1, 0}, {2, true, false, 1, 0}})};
  Instance I(std::move(P));
  Grouping Cyclic = {{0, 3}, {1, 2}};
  EXPECT_TRUE(I.Evaluator.group({0, 3}).Feasible);
  EXPECT_TRUE(I.Evaluator.group({1, 2}).Feasible);
  EXPECT_FALSE(I.Evaluator.orderable(Cyclic));
  GroupingGeneticSearch Search(I.Evaluator, {});
  Search.repair(Cyclic, {});
  EXPECT_TRUE(isPartition(Cyclic, 4));
  EXPECT_TRUE(I.Evaluator.feasible(Cyclic));
}

TEST(FusionSearch, GeneticSearchMatchesExactSearchOnSmallInstance) {
  Instance I(synthetic(9, 14, 7));
  std::optional<SearchResult> Exact = exactSearch(I.Evaluator);
  ASSERT_TRUE(Exact.has_value());
  GeneticSearchOptions Options;
  Options.Seed = 3;
  SearchResult Genetic = GroupingGeneticSearch(I.Evaluator, Options).run();
  EXPECT_NEAR(Genetic.Seconds, Exact->Seconds, Exact->Seconds * 1e-9);
  EXPECT_LT(Exact->Seconds, Exact->OriginalSeconds);
  EXPECT_TRUE(I.Evaluator.feasible(Genetic.Best));
}

TEST(FusionSearch, ExactSearchRefusesLargeInstances) {
  Instance I(synthetic(30, 20, 1));
  EXPECT_FALSE(exactSearch(I.Evaluator).has_value());
}

TEST(SyntheticPrograms, FollowsSpecification) {
  SyntheticProgramSpec Spec;
  Spec.Kernels = 142;
  Spec.Arrays = 64;
  Spec.DataCopies = 4;
  Spec.SharingSetSize = 6;
  FusionProblem P = generateSyntheticProgram(Spec);
  EXPECT_EQ(P.Kernels.size(), 142u);
  EXPECT_EQ(P.Arrays.size(), 64u);
  EXPECT_EQ(P.Kernels.back().Segment, 4u);
  for (const OriginalKernel &K : P.Kernels)
    EXPECT_TRUE(
        std::any_of(K.Uses.begin(), K.Uses.end(), [](const ArrayUse &U) { return U.Writes; }))
        << K.Name << " writes nothing";
  FusionProblem Again = generateSyntheticProgram(Spec);
  EXPECT_EQ(toJson(P), toJson(Again));
}

TEST(SyntheticPrograms, SpecParsesKeyNumberPairs) {
  llvm::Expected<SyntheticProgramSpec> Spec = parseSyntheticProgramSpec("kernels=12,seed=4");
  ASSERT_TRUE(static_cast<bool>(Spec));
  EXPECT_EQ(Spec->Kernels, 12u);
  EXPECT_EQ(Spec->Seed, 4u);
  EXPECT_EQ(Spec->Arrays, SyntheticProgramSpec().Arrays);
  EXPECT_EQ(llvm::toString(parseSyntheticProgramSpec("kernels=x").takeError()),
            "'kernels=x' is not key=number");
  EXPECT_EQ(llvm::toString(parseSyntheticProgramSpec("colour=1").takeError()),
            "unknown attribute 'colour'");
}

} // namespace
