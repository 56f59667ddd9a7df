#ifndef LAUNCHOPT_TRANSFORMS_AGGREGATE_ALLOCATIONAGGREGATION_H
#define LAUNCHOPT_TRANSFORMS_AGGREGATE_ALLOCATIONAGGREGATION_H

#include "AggregatePass.h"
#include "Analysis/SourceText.h"
#include <vector>

namespace launchopt {

struct AllocationRewrites {
  // Each replaces the name of a called allocation or free function; offsets
  // are in the pass's input text.
  std::vector<SourceEdit> Edits;
  std::vector<LaunchRemark> Remarks;
};

// KLAP §II-C: in the kernels whose launches are aggregated (AggregatedBodies,
// the braces of their bodies), device-side `cudaMalloc(&p, n)` and
// `malloc(n)` allocate once per block (granularity block or coarser and the
// call reached by the whole block) or per warp, then split. The pieces can
// only be freed by launchopt::groupFree, so every other device-side
// allocation of the file gets a piece header too and every device-side free
// becomes groupFree; when one of them cannot be rewritten, none is.
// LaunchStatements are replaced as a whole by the pass: no edit may fall
// inside them.
AllocationRewrites aggregateAllocations(clang::ASTContext &Ctx,
                                        const std::vector<FileRange> &AggregatedBodies,
                                        const std::vector<FileRange> &LaunchStatements,
                                        AggregationGranularity Granularity);

} // namespace launchopt

#endif
