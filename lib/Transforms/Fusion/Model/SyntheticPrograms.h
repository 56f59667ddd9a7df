#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_SYNTHETICPROGRAMS_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_SYNTHETICPROGRAMS_H

#include "FusionProblem.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>

namespace launchopt {

// The attributes of the paper's test suite (Table V). Ranges there: 10-100
// kernels, 20-200 arrays, 2-10 data copies, sharing sets of 2-8 kernels,
// average thread load 4-12, kinship 2-5.
struct SyntheticProgramSpec {
  unsigned Kernels = 10;
  unsigned Arrays = 20;
  unsigned DataCopies = 2;
  unsigned SharingSetSize = 4;
  unsigned ThreadLoad = 8;
  // Sharing is local in launch order, as in real dynamical cores: the
  // kernels of one sharing set lie within a window of Kinship times the
  // sharing set size.
  unsigned Kinship = 3;
  uint64_t Seed = 1;
};

// A synthetic fusion problem: each array gets a sharing set; its first user
// writes it (or it is a read-only input), later users read, update or
// overwrite it (expandable); stencil reads have thread loads around the
// average and radius 1 or 2; the data copies split the launch sequence.
FusionProblem generateSyntheticProgram(const SyntheticProgramSpec &Spec);

// A spec written as "kernels=N,arrays=N,copies=N,sharing=N,load=N,kinship=N,
// seed=N", any of them left out (then at its default), or why it is not one.
llvm::Expected<SyntheticProgramSpec> parseSyntheticProgramSpec(llvm::StringRef Text);

} // namespace launchopt

#endif
