#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONSCRATCH_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONSCRATCH_H

#include "FusionExtraction.h"

namespace launchopt {

// Marks the problem's scratch arrays (DataArray::Scratch): allocations the
// host function holds in a local pointer that starts null, and uses only to
// allocate (cudaMalloc, cudaMallocAsync, cudaMallocFromPoolAsync), to free,
// and as a whole argument of the sequence's launches, directly or through
// host functions that do the same with their parameter. Nothing else (a
// copy, a memset, an alias, another launch) may see the values the kernels
// leave in it, so a store that only kernels of the sequence could load
// is the sequence's own business.
void markScratchArrays(FusionExtraction &X);

} // namespace launchopt

#endif
