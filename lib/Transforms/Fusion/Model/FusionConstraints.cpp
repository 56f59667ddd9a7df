#include "FusionConstraints.h"

#include <algorithm>
#include <limits>

namespace launchopt {

GroupEvaluator::GroupEvaluator(const ProjectionModel &Model) : Model(Model) {}

GroupEvaluator::Value GroupEvaluator::group(const std::vector<unsigned> &Members) const {
  if (Members.size() == 1)
    return {true, Model.originalSeconds(Members.front())};
  std::vector<unsigned> Sorted = Members;
  std::sort(Sorted.begin(), Sorted.end());
  std::string Key(reinterpret_cast<const char *>(Sorted.data()), Sorted.size() * sizeof(unsigned));
  auto It = Cache.find(Key);
  if (It != Cache.end())
    return It->second;
  NewKernelProjection F = Model.project(Sorted);
  Value V{F.Feasible, F.ProjectedSeconds};
  Cache.emplace(std::move(Key), V);
  return V;
}

// Kahn's algorithm on the graph of groups; what it cannot place lies on or
// behind a cycle.
static std::vector<unsigned> topologicalOrder(const FusionGraphs &G, const Grouping &Groups,
                                              std::vector<unsigned> &Stuck) {
  unsigned N = G.Successors.size();
  // Kernels not yet in a group (during repair) constrain nothing.
  std::vector<int> GroupOf(N, -1);
  for (unsigned F = 0; F < Groups.size(); ++F)
    for (unsigned K : Groups[F])
      GroupOf[K] = F;
  std::vector<std::vector<unsigned>> Next(Groups.size());
  std::vector<unsigned> InDegree(Groups.size(), 0);
  for (unsigned F = 0; F < Groups.size(); ++F) {
    llvm::BitVector Out(N);
    for (unsigned K : Groups[F])
      Out |= G.Successors[K];
    std::vector<bool> Seen(Groups.size(), false);
    for (unsigned K : Out.set_bits()) {
      int T = GroupOf[K];
      if (T >= 0 && unsigned(T) != F && !Seen[T]) {
        Seen[T] = true;
        Next[F].push_back(T);
        ++InDegree[T];
      }
    }
  }
  // Among ready groups the one holding the earliest original launch goes
  // first, so that the new launch sequence stays close to the written one.
  auto Earliest = [&](unsigned F) { return *std::min_element(Groups[F].begin(), Groups[F].end()); };
  std::vector<unsigned> Ready, Order;
  for (unsigned F = 0; F < Groups.size(); ++F)
    if (!InDegree[F])
      Ready.push_back(F);
  while (!Ready.empty()) {
    auto Best = std::min_element(Ready.begin(), Ready.end(),
                                 [&](unsigned A, unsigned B) { return Earliest(A) < Earliest(B); });
    unsigned F = *Best;
    Ready.erase(Best);
    Order.push_back(F);
    for (unsigned T : Next[F])
      if (--InDegree[T] == 0)
        Ready.push_back(T);
  }
  Stuck.clear();
  for (unsigned F = 0; F < Groups.size(); ++F)
    if (InDegree[F])
      Stuck.push_back(F);
  return Order;
}

bool GroupEvaluator::orderable(const Grouping &Groups, std::vector<unsigned> *Order) const {
  std::vector<unsigned> Stuck;
  std::vector<unsigned> O = topologicalOrder(Model.graphs(), Groups, Stuck);
  if (Order)
    *Order = O;
  return Stuck.empty();
}

std::vector<unsigned> GroupEvaluator::groupsOnCycles(const Grouping &Groups) const {
  std::vector<unsigned> Stuck;
  topologicalOrder(Model.graphs(), Groups, Stuck);
  return Stuck;
}

bool GroupEvaluator::feasible(const Grouping &Groups) const {
  for (const std::vector<unsigned> &F : Groups)
    if (F.empty() || !group(F).Feasible)
      return false;
  return orderable(Groups);
}

double GroupEvaluator::cost(const Grouping &Groups) const {
  if (!feasible(Groups))
    return std::numeric_limits<double>::infinity();
  double Sum = 0;
  for (const std::vector<unsigned> &F : Groups)
    Sum += group(F).Seconds;
  return Sum;
}

} // namespace launchopt
