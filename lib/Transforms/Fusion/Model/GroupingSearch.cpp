#include "GroupingSearch.h"

#include <algorithm>
#include <limits>
#include <set>

namespace launchopt {

GroupingGeneticSearch::GroupingGeneticSearch(const GroupEvaluator &Evaluator,
                                             GeneticSearchOptions Options)
    : Evaluator(Evaluator), Options(Options), Random(Options.Seed) {
  const FusionProblem &P = Evaluator.model().problem();
  unsigned N = P.Kernels.size();
  Kin.resize(N);
  for (unsigned I = 0; I < N; ++I)
    for (unsigned J = 0; J < N; ++J)
      if (I != J)
        for (const ArrayUse &U : P.Kernels[I].Uses)
          if (P.Kernels[J].use(U.Array)) {
            Kin[I].push_back(J);
            break;
          }
}

// Puts Kernel into the group where it lowers the projected time most (or, at
// random, into any group where it lowers it: the "hybrid" local heuristic
// keeps diversity), else into a group of its own.
void GroupingGeneticSearch::reinsert(Grouping &Groups, unsigned Kernel) {
  unsigned N = Evaluator.model().problem().Kernels.size();
  std::vector<int> GroupOf(N, -1);
  for (unsigned F = 0; F < Groups.size(); ++F)
    for (unsigned K : Groups[F])
      GroupOf[K] = F;
  std::set<unsigned> Candidates;
  for (unsigned K : Kin[Kernel])
    if (GroupOf[K] >= 0)
      Candidates.insert(GroupOf[K]);
  double Alone = Evaluator.group({Kernel}).Seconds;
  std::vector<std::pair<double, unsigned>> Improving;
  for (unsigned F : Candidates) {
    std::vector<unsigned> Joined = Groups[F];
    Joined.push_back(Kernel);
    GroupEvaluator::Value V = Evaluator.group(Joined);
    double Gain = Evaluator.group(Groups[F]).Seconds + Alone - V.Seconds;
    if (V.Feasible && Gain > 0)
      Improving.push_back({Gain, F});
  }
  std::sort(Improving.rbegin(), Improving.rend());
  if (Improving.size() > 1 && std::uniform_real_distribution<>(0, 1)(Random) < 0.3)
    std::shuffle(Improving.begin(), Improving.end(), Random);
  for (auto [Gain, F] : Improving) {
    Groups[F].push_back(Kernel);
    if (Evaluator.orderable(Groups))
      return;
    Groups[F].pop_back();
  }
  Groups.push_back({Kernel});
}

void GroupingGeneticSearch::repair(Grouping &Groups, std::vector<unsigned> Free) {
  Grouping Kept;
  for (std::vector<unsigned> &F : Groups) {
    if (F.empty())
      continue;
    if (F.size() > 1 && !Evaluator.group(F).Feasible)
      Free.insert(Free.end(), F.begin(), F.end());
    else
      Kept.push_back(std::move(F));
  }
  // Dissolving one non-single group on a cycle of the contracted
  // order-of-execution graph at a time breaks every cycle eventually:
  // single kernels alone are always orderable.
  for (std::vector<unsigned> Stuck = Evaluator.groupsOnCycles(Kept); !Stuck.empty();
       Stuck = Evaluator.groupsOnCycles(Kept)) {
    std::vector<unsigned> Multi;
    for (unsigned F : Stuck)
      if (Kept[F].size() > 1)
        Multi.push_back(F);
    // Single kernels on a cycle mean the order-of-execution graph itself is
    // cyclic (a malformed problem): no dissolving helps, so stop here rather
    // than pick from nothing.
    if (Multi.empty())
      break;
    unsigned Victim = Multi[std::uniform_int_distribution<size_t>(0, Multi.size() - 1)(Random)];
    Free.insert(Free.end(), Kept[Victim].begin(), Kept[Victim].end());
    Kept.erase(Kept.begin() + Victim);
  }
  std::shuffle(Free.begin(), Free.end(), Random);
  for (unsigned K : Free)
    reinsert(Kept, K);
  Groups = std::move(Kept);
}

Grouping GroupingGeneticSearch::randomIndividual() {
  unsigned N = Evaluator.model().problem().Kernels.size();
  std::vector<unsigned> All(N);
  for (unsigned K = 0; K < N; ++K)
    All[K] = K;
  Grouping Groups;
  repair(Groups, All);
  return Groups;
}

Grouping GroupingGeneticSearch::crossover(const Grouping &Receiver, const Grouping &Donor) {
  // A problem without kernels has only the empty grouping.
  if (Donor.empty())
    return Receiver;
  // Inject a contiguous run of the donor's groups (Falkenauer's crossing
  // section); the receiver's groups that overlap them are dissolved.
  size_t Begin = std::uniform_int_distribution<size_t>(0, Donor.size() - 1)(Random);
  size_t End = std::uniform_int_distribution<size_t>(Begin + 1, Donor.size())(Random);
  unsigned N = Evaluator.model().problem().Kernels.size();
  std::vector<bool> Injected(N, false);
  Grouping Child(Donor.begin() + Begin, Donor.begin() + End);
  for (const std::vector<unsigned> &F : Child)
    for (unsigned K : F)
      Injected[K] = true;
  std::vector<unsigned> Free;
  for (const std::vector<unsigned> &F : Receiver) {
    bool Overlaps = std::any_of(F.begin(), F.end(), [&](unsigned K) { return Injected[K]; });
    if (!Overlaps) {
      Child.push_back(F);
      continue;
    }
    for (unsigned K : F)
      if (!Injected[K])
        Free.push_back(K);
  }
  repair(Child, Free);
  return Child;
}

Grouping GroupingGeneticSearch::mutate(const Grouping &Individual) {
  Grouping Groups = Individual;
  if (Groups.empty())
    return Groups;
  std::vector<unsigned> Free;
  unsigned Kind = std::uniform_int_distribution<unsigned>(0, 2)(Random);
  auto Pick = [&]() { return std::uniform_int_distribution<size_t>(0, Groups.size() - 1)(Random); };
  if (Kind == 0) {
    // Dissolve a group: its kernels look for better homes.
    size_t F = Pick();
    Free = Groups[F];
    Groups.erase(Groups.begin() + F);
  } else if (Kind == 1) {
    // Merge a group with a kin group; repair splits it again if infeasible.
    size_t F = Pick();
    unsigned Seed =
        Groups[F][std::uniform_int_distribution<size_t>(0, Groups[F].size() - 1)(Random)];
    if (!Kin[Seed].empty()) {
      unsigned Other =
          Kin[Seed][std::uniform_int_distribution<size_t>(0, Kin[Seed].size() - 1)(Random)];
      for (size_t G = 0; G < Groups.size(); ++G)
        if (G != F && std::count(Groups[G].begin(), Groups[G].end(), Other)) {
          std::vector<unsigned> Merged = Groups[F];
          Merged.insert(Merged.end(), Groups[G].begin(), Groups[G].end());
          if (Evaluator.group(Merged).Feasible) {
            Groups[F] = Merged;
            Groups.erase(Groups.begin() + G);
          }
          break;
        }
    }
  } else {
    // Move one kernel out of its group.
    size_t F = Pick();
    size_t I = std::uniform_int_distribution<size_t>(0, Groups[F].size() - 1)(Random);
    Free.push_back(Groups[F][I]);
    Groups[F].erase(Groups[F].begin() + I);
  }
  repair(Groups, Free);
  return Groups;
}

Grouping canonicalGrouping(const GroupEvaluator &Evaluator, Grouping Groups) {
  for (std::vector<unsigned> &F : Groups)
    std::sort(F.begin(), F.end());
  std::vector<unsigned> Order;
  Evaluator.orderable(Groups, &Order);
  Grouping Sorted;
  for (unsigned F : Order)
    Sorted.push_back(Groups[F]);
  return Sorted;
}

SearchResult GroupingGeneticSearch::run() {
  const FusionProblem &P = Evaluator.model().problem();
  SearchResult Result;
  for (unsigned K = 0; K < P.Kernels.size(); ++K)
    Result.OriginalSeconds += Evaluator.model().originalSeconds(K);
  // Nothing to group: the empty plan, without drawing from empty ranges.
  if (P.Kernels.empty() || !Options.PopulationSize) {
    Result.Best = canonicalGrouping(Evaluator, randomIndividual());
    Result.Seconds = Evaluator.cost(Result.Best);
    Result.Evaluations = Evaluator.evaluations();
    return Result;
  }
  std::vector<std::pair<double, Grouping>> Population;
  for (unsigned I = 0; I < Options.PopulationSize; ++I) {
    Grouping G = randomIndividual();
    Population.push_back({Evaluator.cost(G), std::move(G)});
  }
  auto ByCost = [](const auto &A, const auto &B) { return A.first < B.first; };
  std::sort(Population.begin(), Population.end(), ByCost);
  double Best = Population.front().first;
  unsigned Stall = 0;
  std::uniform_int_distribution<size_t> Anyone(0, Population.size() - 1);
  auto Tournament = [&]() -> const Grouping & {
    size_t A = Anyone(Random), B = Anyone(Random);
    return Population[std::min(A, B)].second; // sorted: lower index is fitter
  };
  unsigned Generation = 0;
  for (; Generation < Options.MaxGenerations && Stall < Options.StallGenerations; ++Generation) {
    std::vector<std::pair<double, Grouping>> Offspring;
    for (unsigned I = 0; I < Options.OffspringPerGeneration; ++I) {
      Grouping Child = crossover(Tournament(), Tournament());
      if (std::uniform_real_distribution<>(0, 1)(Random) < Options.MutationRate)
        Child = mutate(Child);
      Offspring.push_back({Evaluator.cost(Child), std::move(Child)});
    }
    // Replacement: offspring take the places of the worst individuals when
    // they are better; the best individual always survives (elitism).
    std::sort(Offspring.begin(), Offspring.end(), ByCost);
    size_t Worst = Population.size();
    for (auto &Child : Offspring) {
      if (Worst <= 1 || !(Child.first < Population[Worst - 1].first))
        break;
      Population[--Worst] = std::move(Child);
    }
    std::sort(Population.begin(), Population.end(), ByCost);
    if (Population.front().first < Best * (1 - 1e-12)) {
      Best = Population.front().first;
      Stall = 0;
    } else {
      ++Stall;
    }
  }
  Result.Best = canonicalGrouping(Evaluator, Population.front().second);
  Result.Seconds = Population.front().first;
  Result.Generations = Generation;
  Result.Evaluations = Evaluator.evaluations();
  return Result;
}

namespace {
struct PartitionEnumerator {
  const GroupEvaluator &Evaluator;
  const FusionProblem &P;
  const FusionGraphs &G;
  Grouping Groups;
  SearchResult Best;

  // A group whose members all come before the next kernel to place can never
  // gain the kernels on a path between them: prune it now.
  bool closedSoFar(const std::vector<unsigned> &F) const {
    if (F.size() < 2)
      return true;
    const std::vector<unsigned> Sorted = F; // members are appended in order
    unsigned Last = Sorted.back();
    for (unsigned A : Sorted)
      for (unsigned Q : G.Descendants[A].set_bits()) {
        if (Q >= Last)
          break;
        if (G.Descendants[Q].test(Last) && !std::count(Sorted.begin(), Sorted.end(), Q))
          return false;
      }
    return true;
  }

  void place(unsigned K) {
    if (K == P.Kernels.size()) {
      double Cost = Evaluator.cost(Groups);
      if (Cost < Best.Seconds) {
        Best.Seconds = Cost;
        Best.Best = Groups;
      }
      return;
    }
    for (size_t F = 0; F < Groups.size(); ++F) {
      const OriginalKernel &Head = P.Kernels[Groups[F].front()];
      if (Head.Segment != P.Kernels[K].Segment || Head.LaunchConfig != P.Kernels[K].LaunchConfig)
        continue;
      Groups[F].push_back(K);
      if (closedSoFar(Groups[F]))
        place(K + 1);
      Groups[F].pop_back();
    }
    Groups.push_back({K});
    place(K + 1);
    Groups.pop_back();
  }
};
} // namespace

std::optional<SearchResult> exactSearch(const GroupEvaluator &Evaluator, unsigned MaxKernels) {
  const FusionProblem &P = Evaluator.model().problem();
  if (P.Kernels.size() > MaxKernels)
    return std::nullopt;
  PartitionEnumerator E{Evaluator, P, Evaluator.model().graphs(), {}, {}};
  E.Best.Seconds = std::numeric_limits<double>::infinity();
  E.place(0);
  for (unsigned K = 0; K < P.Kernels.size(); ++K)
    E.Best.OriginalSeconds += Evaluator.model().originalSeconds(K);
  E.Best.Best = canonicalGrouping(Evaluator, E.Best.Best);
  E.Best.Evaluations = Evaluator.evaluations();
  return E.Best;
}

} // namespace launchopt
