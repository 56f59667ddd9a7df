#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_DEADSTORES_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_DEADSTORES_H

#include "FusionProblem.h"
#include "llvm/ADT/ArrayRef.h"

namespace launchopt {

// Whether a new kernel of Members (original kernels in launch order) may
// leave out its stores of Array: the array is scratch (only the sequence's
// kernels see it), no kernel outside Members reads it, and the first member
// that reads it comes after one that writes it at every site without
// reading it. Every load of the array is then one of the new kernel's own,
// of a value it produced; whether those loads are served on chip is for the
// caller to check (the projection's halo paths, code generation's plan).
bool storesDroppable(const FusionProblem &P, llvm::ArrayRef<unsigned> Members, unsigned Array);

} // namespace launchopt

#endif
