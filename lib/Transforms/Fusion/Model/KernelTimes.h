#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_KERNELTIMES_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_KERNELTIMES_H

#include "FusionProblem.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <string>

namespace launchopt {

// Measured kernel times of a profiling run, in seconds per launch, keyed by
// kernel name as the problem spells it ("name" or "name#2"). Read from any
// of:
//  - CSV lines `kernel,seconds` (a header line is skipped);
//  - the per-launch lines of a --timing-hooks build run unfused
//    (`launch 3 flux_x: 0.1234 ms`);
//  - `nsys stats --report cuda_gpu_kern_sum --format csv` (the "Avg (ns)"
//    and "Name" columns; the name up to its parameter list).
llvm::Expected<std::map<std::string, double>> parseKernelTimes(llvm::StringRef Text);

// Sets P(K), the measured runtime the model takes as the original time of
// a kernel and in every original sum (paper Table III), for each kernel the
// times name; "name#2" falls back to "name". Returns how many were set.
unsigned applyKernelTimes(FusionProblem &P, const std::map<std::string, double> &Times);

} // namespace launchopt

#endif
