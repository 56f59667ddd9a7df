#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_GROUPINGSEARCH_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_GROUPINGSEARCH_H

#include "FusionConstraints.h"
#include <cstdint>
#include <random>

namespace launchopt {

struct GeneticSearchOptions {
  unsigned PopulationSize = 60;   // M of Algorithm 1
  unsigned OffspringPerGeneration = 30; // N of Algorithm 1
  unsigned MaxGenerations = 2000;
  // Stop when the best solution has not changed for this many generations
  // (the paper's stop criterion, §VI-C1).
  unsigned StallGenerations = 150;
  double MutationRate = 0.3;
  uint64_t Seed = 1;
};

struct SearchResult {
  Grouping Best; // sorted: groups in a valid launch order, members ascending
  double Seconds = 0;
  unsigned Generations = 0;
  size_t Evaluations = 0; // distinct new kernels projected
  double OriginalSeconds = 0;
};

// The grouping genetic algorithm (paper §III-C, after Falkenauer's HGGA):
// chromosomes are lists of groups, crossover injects whole groups of one
// parent into the other, mutation dissolves, merges or moves groups, and a
// repair step restores every constraint of Fig. 4 so that each child is
// feasible.
class GroupingGeneticSearch {
public:
  GroupingGeneticSearch(const GroupEvaluator &Evaluator, GeneticSearchOptions Options);
  SearchResult run();

  // The operators, public for tests: each returns a feasible grouping.
  Grouping randomIndividual();
  Grouping crossover(const Grouping &Receiver, const Grouping &Donor);
  Grouping mutate(const Grouping &Individual);
  // Makes Groups feasible: infeasible groups and groups on precedence cycles
  // are dissolved, then the freed kernels (and Free) are reinserted where
  // they lower the projected time, or left alone.
  void repair(Grouping &Groups, std::vector<unsigned> Free);

private:
  const GroupEvaluator &Evaluator;
  GeneticSearchOptions Options;
  std::mt19937_64 Random;
  std::vector<std::vector<unsigned>> Kin; // kernels sharing an array, per kernel

  void reinsert(Grouping &Groups, unsigned Kernel);
};

// Exhaustive search over all partitions (restricted growth strings) that
// keep kernels of different segments apart; for checking the genetic search
// on small instances. Returns nothing above MaxKernels.
inline constexpr unsigned ExactSearchMaxKernels = 13;
std::optional<SearchResult> exactSearch(const GroupEvaluator &Evaluator,
                                        unsigned MaxKernels = ExactSearchMaxKernels);

// Groups in launch order with ascending members, so equal plans compare equal.
Grouping canonicalGrouping(const GroupEvaluator &Evaluator, Grouping Groups);

} // namespace launchopt

#endif
