#ifndef LAUNCHOPT_TRANSFORMS_AGGREGATE_POOLDEMAND_H
#define LAUNCHOPT_TRANSFORMS_AGGREGATE_POOLDEMAND_H

// The record pool is allocated at run time and sized from the work
// (runtime/include/launchopt/aggregation.cuh: preparePool). At each host
// launch of a top-level parent the pass tells it what it knows there: the
// parent's grid and block, and what each parent thread (or block) records at
// the parent's own aggregated sites.

#include "SiteRewrite.h"
#include "Analysis/LaunchSites.h"
#include "Transforms/Common/LaunchText.h"
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace launchopt {

// launchopt::ParentDemand of the runtime: sites where every parent thread
// may launch, sites where one thread per parent block does (LaunchSite::
// OneThreadPerBlock), and the bytes one launch's arguments take in the pool
// summed over those sites.
struct ParentPoolDemand {
  unsigned ThreadSites = 0;
  uint64_t ThreadArgumentBytes = 0;
  unsigned BlockSites = 0;
  uint64_t BlockArgumentBytes = 0;
  // No aggregated site among the parent's descendants: its launches take
  // nothing from the pool beyond its own sites' records.
  bool OwnSitesOnly = false;

  // `{threadSites, threadArgumentBytes, blockSites, blockArgumentBytes,
  // ownSitesOnly}`.
  std::string initializer() const;
};

// The bytes one launch's per-launch arguments take in the pool: the struct
// of the child's arguments that are not uniform, in 16-byte pieces. A
// parameter whose type depends on a template counts as a pointer.
uint64_t launchArgumentBytes(const clang::ASTContext &Ctx, const clang::FunctionDecl &Child,
                             const UniformParameters &Uniform);

// Per parent kernel (by name, as host launches name it), its sites' demand.
std::map<std::string, ParentPoolDemand>
poolDemandOfParents(const clang::ASTContext &Ctx, const std::vector<AcceptedSite> &Sites,
                    const std::map<const clang::FunctionDecl *, UniformParameters> &UniformOf);

// Adds to `Kernels` every kernel that reaches one of them through launches
// from device code.
void addDeviceLaunchers(const LaunchAnalysis &Launches, std::set<std::string> &Kernels);

// Sets OwnSitesOnly for the parents of `Demand` (the kernels with aggregated
// sites) whose launches cannot reach an aggregated site: no kernel they
// launch from device code has sites of its own, launches one that has, or
// launches a kernel that is not defined here (another file may aggregate in
// it). A site in a device function counts for every kernel (its callers are
// not followed).
void markOwnSitesOnly(const LaunchAnalysis &Launches,
                      std::map<std::string, ParentPoolDemand> &Demand);

// The initializer of `Parent`'s demand (an empty demand when it has none).
std::string demandInitializer(const std::map<std::string, ParentPoolDemand> &DemandOf,
                              const std::string &Parent);
// The host's pool reset before a rewritten launch of `Parent`, from the
// names hostLaunchWithPool binds: `launchopt::resetPool(...);`.
std::string resetPoolCall(const std::map<std::string, ParentPoolDemand> &DemandOf,
                          const std::string &Parent);
// A host launch rewritten so that its stream, grid and block are evaluated
// once, into __lo_hstream, __lo_hgrid and __lo_hblock, before `Before` (which
// prepares the pool from them) and the launch, and `After` follows it.
std::string hostLaunchWithPool(const LaunchText &L, const std::string &Before,
                               const std::string &After = "");

} // namespace launchopt

#endif
