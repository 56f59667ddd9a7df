#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_FUSIONPLAN_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_FUSIONPLAN_H

#include "GroupingSearch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace launchopt {

// The search's answer as a plan: new kernels in launch order, each with its
// members, pivot arrays and projection (what code generation follows).
struct FusionPlan {
  std::vector<NewKernelProjection> NewKernels;
  double OriginalSeconds = 0;
  double ProjectedSeconds = 0;
  // Per original kernel the plan leaves alone, why (whyAlone); empty for
  // fused kernels.
  std::vector<std::string> WhyAlone;
};

// Why kernel K is not fused with the kernels of its segment it shares arrays
// with: the projection of K paired with the nearest of them that gives a reason
// (infeasible, or not projected faster than the two apart); when it has
// none in its segment, that; empty when every pairing is feasible.
std::string whyAlone(const ProjectionModel &Model, unsigned K);

FusionPlan makeFusionPlan(const ProjectionModel &Model, const Grouping &Groups);
llvm::json::Value toJson(const FusionPlan &Plan, const FusionProblem &P);
// A plan read back; the projections are recomputed from the model.
llvm::Expected<Grouping> groupingFromPlanJson(const llvm::json::Value &V, const FusionProblem &P);
void printPlanReport(llvm::raw_ostream &OS, const FusionPlan &Plan, const FusionProblem &P);

} // namespace launchopt

#endif
