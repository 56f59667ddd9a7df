#ifndef LAUNCHOPT_ANALYSIS_INSTRUCTIONESTIMATE_H
#define LAUNCHOPT_ANALYSIS_INSTRUCTIONESTIMATE_H

#include "clang/AST/Decl.h"
#include <optional>

namespace launchopt {

// The instructions one thread of a kernel issues, estimated from its body:
// one per arithmetic, comparison and conversion, two per memory access
// (address and load or store), about ten per IEEE float division (the
// reciprocal, its Newton steps and the range check; twenty for double and
// for integer division), the maths library's usual costs, the larger side
// of a branch, and device functions followed into. nullopt when a loop, a
// call that cannot be followed or a recursion leaves the count unknown.
// Fusion prices recomputation with it: a producer run again at neighbour
// sites repeats its instructions, not its memory traffic.
std::optional<double> estimatedInstructions(const clang::FunctionDecl &Kernel);

} // namespace launchopt

#endif
