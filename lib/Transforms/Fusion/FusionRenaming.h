#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONRENAMING_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONRENAMING_H

#include "FusionExtraction.h"
#include "Model/FusionGraphs.h"
#include "Model/FusionPlan.h"
#include <map>

namespace launchopt {

// Why code generation cannot give the versions of an array separate buffers
// (paper §II-B1 c), per array; empty where it can, and for arrays that have
// one version in G, the graphs with every array relaxed. Arrays with a reason
// keep one version in the search.
std::vector<std::string> renamingRefusals(const clang::ASTContext &Ctx, const FusionExtraction &X,
                                          const FusionGraphs &G);

// The renamed buffers of one segment (one fused launch sequence).
struct SegmentRenaming {
  std::string Stream; // the segment's stream operand, "0" for the default stream
  struct Array {
    unsigned Allocation = 0;
    std::string User; // the user's pointer, as the first launch writes it
    // The versions the segment touches: all but the last get new buffers,
    // the last is written into the user's allocation.
    unsigned FirstVersion = 0;
    unsigned LastVersion = 0;
  };
  std::vector<Array> Arrays;
};

// Which arrays a plan actually renames: those where it runs an access of a
// later version before an access of an earlier one (or in one new kernel
// across threads), which only separate buffers make correct.
struct RenamingPlan {
  std::map<unsigned, SegmentRenaming> Segments; // segments that rename
  // Per launch: argument position -> the renamed buffer it gets instead.
  std::vector<std::map<unsigned, std::string>> ArgumentBuffer;
  std::vector<std::string> ReportLines;
  std::vector<LaunchRemark> Remarks;
};

// The host variable holding version Version of array Name.
std::string renamedBufferName(const std::string &Name, unsigned Version);

RenamingPlan planRenaming(const clang::ASTContext &Ctx, const FusionExtraction &X,
                          const FusionGraphs &Relaxed, const FusionPlan &Plan,
                          const std::vector<std::string> &Refusals);

} // namespace launchopt

#endif
