#ifndef LAUNCHOPT_TRANSFORMS_PROMOTE_PROMOTECODE_H
#define LAUNCHOPT_TRANSFORMS_PROMOTE_PROMOTECODE_H

// The text promotion writes for one kernel (runtime: launchopt/promotion.cuh).

#include "PromoteOverlap.h"
#include "Transforms/Common/KernelCopy.h"
#include "Transforms/Common/LaunchText.h"
#include <string>

namespace launchopt {

struct PromotedKernel {
  const KernelCopy &Kernel;
  const LaunchText &Launch;
  std::string Signature; // the kernel's declaration
  const OverlapPlan *Overlap = nullptr; // PO, PAO: the split of the body
};

// Before the kernel: the argument struct, declarations, the pack function and
// the body as a device function that launches the successor's pool at its
// start; BodyWithSite is the kernel's body with the launch site rewritten.
std::string promotedPrologue(const PromotedKernel &K, const std::string &BodyWithSite);
// The launch site: store the arguments for the successor, or launch as
// written when no successor was launched at the start.
std::string promotedSite(const PromotedKernel &K);
// The kernel's new body: the host-launched first step of the chain.
std::string promotedFirstBody(const PromotedKernel &K);
// With overlap, before the first statement of the body's dependent part:
// wait for the postponed arguments and take them.
std::string promotedAcquire(const PromotedKernel &K);
// After the kernel: the pool kernel, one successor per block.
std::string promotedPoolKernel(const PromotedKernel &K);
// At the file's start: the pool size macro and the runtime.
std::string promotionPreamble(unsigned PoolSize);

} // namespace launchopt

#endif
