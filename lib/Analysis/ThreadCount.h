#ifndef LAUNCHOPT_ANALYSIS_THREADCOUNT_H
#define LAUNCHOPT_ANALYSIS_THREADCOUNT_H

#include "LaunchSites.h"
#include <array>

namespace launchopt {

// The number of child threads a parent wanted in one grid dimension,
// recovered from a ceiling division in the grid expression (paper §III-D,
// Fig. 4), or nothing (then grid × block of that dimension is used).
struct DimensionThreads {
  const clang::Expr *Numerator = nullptr; // N of ceil(N / b)
  // True when N is written inside the launch's own grid expression: the
  // rewrite binds it to a temporary so it is still evaluated once. False when
  // it was found through intermediate variables: it is then evaluated again at
  // the launch, which the analysis allows only for side-effect-free N over
  // variables that are not modified.
  bool InLaunchExpression = false;
  std::string Pattern; // which Fig. 4 form matched, for the report
};

struct ThreadCount {
  std::array<DimensionThreads, 3> Dimensions; // x, y, z
  bool anyRecovered() const {
    for (const DimensionThreads &D : Dimensions)
      if (D.Numerator)
        return true;
    return false;
  }
};

ThreadCount recoverThreadCount(clang::ASTContext &Ctx, const LaunchSite &Site);

} // namespace launchopt

#endif
