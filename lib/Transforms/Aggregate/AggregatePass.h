#ifndef LAUNCHOPT_TRANSFORMS_AGGREGATE_AGGREGATEPASS_H
#define LAUNCHOPT_TRANSFORMS_AGGREGATE_AGGREGATEPASS_H

#include "Analysis/LaunchSites.h"
#include "Transforms/LaunchPass.h"
#include "Transforms/PassResult.h"

namespace launchopt {

// Which parent threads share one aggregated launch (paper §V, KLAP §II).
enum class AggregationGranularity { Warp, Block, MultiBlock, Grid };

struct AggregateOptions {
  AggregationGranularity Granularity = AggregationGranularity::Block;
  unsigned GroupBlocks = 8; // blocks per group for MultiBlock
  // Default of LAUNCHOPT_AGG_THRESHOLD: warp and block scopes with fewer
  // records launch them one by one (paper §V-B).
  unsigned DefaultThreshold = 2;
  bool AssumeIndependentChildren = false;
  // --aggregate=threads: the aggregated grid of a child whose threads are
  // independent packs the child threads densely instead of whole blocks.
  bool PackThreads = false;
  // --aggregate=host: grid scopes of host-launched parents whose aggregated
  // grids the host launches after the parent (no device-side launch).
  bool HostLaunch = false;
  // --aggregate=host-or-device: the host aggregates only parent grids of at
  // least LAUNCHOPT_HOST_MIN_PARENT_THREADS threads; a smaller grid launches
  // its children from the device (the output keeps -rdc=true).
  bool HostWhenLarge = false;
};

const char *granularityName(AggregationGranularity G);

// "--aggregate=host" or "--aggregate=host-or-device", as the user wrote it.
inline std::string hostModeFlag(const AggregateOptions &Options) {
  return Options.HostWhenLarge ? "--aggregate=host-or-device" : "--aggregate=host";
}

// --aggregate=host-or-device: how the parent as written aggregates the
// launches of the grids the host does not (multi-block scopes, grids
// launched from the device).
inline AggregateOptions deviceSideOptions(AggregateOptions Options) {
  Options.Granularity = AggregationGranularity::MultiBlock;
  Options.HostLaunch = false;
  Options.HostWhenLarge = false;
  return Options;
}

// "warp", "block", "grid" or "multiblock:N" (N > 0), the value of
// --aggregate, into the options' granularity; "host" is grid granularity
// launched by the host, "host-or-device" the same for large parent grids
// only; "threads" (grid granularity) or "threads:" and one
// of them packs child threads too; else the usage error.
llvm::Expected<AggregateOptions> parseAggregationGranularity(const std::string &Text);

// Multi-block and grid granularity: scopes span several blocks and live in
// global memory (file-scope arrays, or an aggregated grid's own).
inline bool usesGroupScopes(AggregationGranularity G) {
  return G == AggregationGranularity::MultiBlock || G == AggregationGranularity::Grid;
}

// Launch aggregation for CDP2: the child grids of a scope of parent threads
// become one launch of an aggregated child, issued at the end of the parent
// block (warp, block) or by the last block of the group or grid.
class AggregatePass : public LaunchPass {
public:
  explicit AggregatePass(AggregateOptions Options) : Options(Options) {}
  PassResult run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const override;
  llvm::Error acceptChildOfOtherFiles(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                      const clang::FunctionDecl &Child) const override;

private:
  AggregateOptions Options;
};

} // namespace launchopt

#endif
