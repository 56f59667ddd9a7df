#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONONCHIP_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONONCHIP_H

#include "FusionExtraction.h"
#include "FusionOnChipPlan.h"
#include "Model/ProjectionModel.h"
#include <map>

namespace launchopt {

// Chooses the path of every array the members of F share and the body edits
// that follow it. Arrays that fit no on-chip path keep the GMEM path, and so
// do the allocations of KeepGlobal (with the reason given there). A producer
// is recomputed instead of filling tiles when later members read its
// results at no more than MaxRecomputed neighbour sites (0: always tiles).
OnChipPlan planOnChipMemory(const clang::ASTContext &Ctx, const FusionExtraction &X,
                            const NewKernelProjection &F,
                            const std::map<unsigned, std::string> &KeepGlobal,
                            unsigned MaxRecomputed);

} // namespace launchopt

#endif
