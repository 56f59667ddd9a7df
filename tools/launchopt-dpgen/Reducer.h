// Delta debugging over a generated program's kernels, callees, statements and
// launch sites: removes as many of them as it can while the failure stays.
#ifndef LAUNCHOPT_DPGEN_REDUCER_H
#define LAUNCHOPT_DPGEN_REDUCER_H

#include "Program.h"
#include <functional>
#include <string>

namespace dpgen {

/// Says whether a printed candidate still shows the failure. Slot (below the
/// reduction's Jobs) is unique among the calls running at once, so a caller
/// can give each its own scratch file.
using FailurePredicate = std::function<bool(const std::string &Source, unsigned Slot)>;

struct Reduction {
  RemovedSet Removed;
  unsigned Items = 0;       // removable items of the program
  unsigned Tests = 0;       // predicate runs
  std::string Source;       // the reduced program, printed
};

/// The program with as many items removed as the predicate allows (1-minimal:
/// removing any one more item loses the failure). The input must fail. Up to
/// Jobs predicate calls run at once, on threads of their own. OnSmaller, if
/// given, sees each smaller failing program as it is found (a reduction cut
/// short keeps its progress).
Reduction reduceProgram(const Program &P, const FailurePredicate &StillFails, unsigned Jobs = 1,
                        const std::function<void(const std::string &)> &OnSmaller = {});

} // namespace dpgen

#endif
