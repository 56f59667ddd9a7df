#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONRECOMPUTE_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONRECOMPUTE_H

#include "FusionOnChipPlan.h"
#include "FusionSites.h"
#include "Model/ProjectionModel.h"
#include <map>
#include <optional>
#include <vector>

namespace launchopt {

// The OnChipPath::Recomputed path of a new kernel's plan (FusionOnChipPlan.h),
// chosen by planOnChipMemory (FusionOnChip.h).

// The register, and its written flag, holding a recomputed array's value at
// one site its producer runs at.
std::string recomputedRegister(const std::string &Array, const SiteOffset &Site);
std::string recomputedFlag(const std::string &Array, const SiteOffset &Site);

// Whether producer W can be recomputed at the sites its results are read
// at instead of filling tiles, and those sites (its own first).
std::optional<std::vector<SiteOffset>>
recomputeSites(unsigned W, const NewKernelProjection &F, unsigned MaxRecomputed,
               const std::map<unsigned, OnChipArray> &Chosen,
               const std::map<unsigned, std::vector<MemberSubscript>> &Subscripts,
               const std::vector<std::optional<IndexMonomial>> &Pitch);

// The registers and body edits of recomputed array A (in Plan); false when
// an access comes from a macro. The producer's parameters go to
// ProducerParams, to be placed after its other extra parameters.
bool recomputedEdits(const clang::ASTContext &Ctx, const OnChipArray &A,
                     const std::vector<MemberSubscript> &Uses,
                     const std::vector<std::optional<IndexMonomial>> &Pitch, OnChipPlan &Plan,
                     std::vector<std::string> &ProducerParams);

} // namespace launchopt

#endif
