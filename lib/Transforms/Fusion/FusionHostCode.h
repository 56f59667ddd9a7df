#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONHOSTCODE_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONHOSTCODE_H

// The host side of a fused source: the launch sequence in the plan's order,
// renamed buffers around it, optional event timing, and the remarks.

#include "FusionCodegenOptions.h"
#include "FusionExtraction.h"
#include "Model/FusionPlan.h"
#include <map>
#include <string>
#include <vector>

namespace launchopt {

// The launch statement as written, with the arguments that get a renamed
// buffer (Buffers: argument index -> buffer; may be null) replaced.
std::string launchText(const clang::ASTContext &Ctx, const ExtractedLaunch &L,
                       const std::map<unsigned, std::string> *Buffers);

// Event timing around every new launch (Launch: one statement per new kernel
// of the plan, rewritten in place); returns the definitions the launches
// need, to go before the host function.
std::string addTimingHooks(const std::vector<std::string> &Names, std::vector<std::string> &Launch);

// Each segment's new launches (Launch, in the plan's order) replace its first
// launch statement, inside the segment's renamed buffers when it has any; the
// other launch statements go.
void replaceLaunchSequence(clang::ASTContext &Ctx, const FusionExtraction &X,
                           const FusionPlan &Plan, const FusionCodegenOptions &Options,
                           const std::vector<std::string> &Launch, SourceEdits &Edits);

// One remark per original launch (Message: "fused into ..." or why not),
// then the renaming's and the extraction's.
std::vector<LaunchRemark> fusionRemarks(const FusionExtraction &X,
                                        const std::vector<std::string> &Message,
                                        const FusionCodegenOptions &Options);

} // namespace launchopt

#endif
