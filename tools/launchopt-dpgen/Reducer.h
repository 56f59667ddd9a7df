// Delta debugging over a generated program's kernels, callees, statements and
// launch sites: removes as many of them as it can while the failure stays.
#ifndef LAUNCHOPT_DPGEN_REDUCER_H
#define LAUNCHOPT_DPGEN_REDUCER_H

#include "Program.h"
#include <functional>
#include <string>

namespace dpgen {

/// Says whether a printed candidate still shows the failure.
using FailurePredicate = std::function<bool(const std::string &Source)>;

struct Reduction {
  RemovedSet Removed;
  unsigned Items = 0;       // removable items of the program
  unsigned Tests = 0;       // predicate runs
  std::string Source;       // the reduced program, printed
};

/// The program with as many items removed as the predicate allows (1-minimal:
/// removing any one more item loses the failure). The input must fail.
Reduction reduceProgram(const Program &P, const FailurePredicate &StillFails);

} // namespace dpgen

#endif
