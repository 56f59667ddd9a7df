#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_FUSIONCONSTRAINTS_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_FUSIONCONSTRAINTS_H

#include "ProjectionModel.h"
#include <unordered_map>
#include <vector>

namespace launchopt {

// A candidate solution: the new kernels, each a set of original kernels
// (a group of the grouping genetic algorithm's encoding).
using Grouping = std::vector<std::vector<unsigned>>;

// The objective of eq. (1) and the constraints of Fig. 4, with every new
// kernel's projection computed once and remembered: the search evaluates the
// same groups over and over (§III-C: evaluation dominates the search time).
class GroupEvaluator {
public:
  explicit GroupEvaluator(const ProjectionModel &Model);

  struct Value {
    bool Feasible;
    double Seconds; // T(F), or the original time of a single kernel
  };
  Value group(const std::vector<unsigned> &Members) const;
  // Sum of T(F) over the groups; infinity when any constraint is violated.
  double cost(const Grouping &Groups) const;
  bool feasible(const Grouping &Groups) const;
  // The new kernels can be launched in some order that respects every
  // precedence (the groups contracted leave the order-of-execution graph
  // acyclic); Order receives one such order.
  bool orderable(const Grouping &Groups, std::vector<unsigned> *Order = nullptr) const;
  // Groups on a precedence cycle of the contracted graph (empty if none).
  std::vector<unsigned> groupsOnCycles(const Grouping &Groups) const;

  const ProjectionModel &model() const { return Model; }
  size_t evaluations() const { return Cache.size(); }

private:
  const ProjectionModel &Model;
  mutable std::unordered_map<std::string, Value> Cache;
};

} // namespace launchopt

#endif
