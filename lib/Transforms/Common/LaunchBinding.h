#ifndef LAUNCHOPT_TRANSFORMS_COMMON_LAUNCHBINDING_H
#define LAUNCHOPT_TRANSFORMS_COMMON_LAUNCHBINDING_H

#include "Analysis/LaunchSites.h"
#include "Transforms/Common/LaunchText.h"
#include "clang/AST/ASTContext.h"
#include <string>
#include <vector>

namespace launchopt {

// A launch's grid and block bound to temporaries, with the number of child
// threads the parent wanted (recovered from the grid expression where it is
// a ceiling division, else grid x block), for passes that decide at run time
// whether to launch or to run the serial copy (thresholding, spawn).
struct BoundLaunch {
  // Declarations, in order, that bind N, grid, block, the thread count and
  // the fits flag; each evaluates the launch's expressions exactly once.
  std::vector<std::string> Lines;
  std::string GridVar, BlockVar, ThreadsVar;
  // Per recovered dimension, the grid is the ceiling of the count, as the
  // decision assumes; where it is not (an unsigned count of 0 in
  // `(n - 1) / b + 1` wraps to a huge grid) the serial copy would run the
  // whole grid, so the launch must run as written. Empty when no count was
  // recovered (then nothing needs it).
  std::string FitsVar;
  // How the count was recovered, for the remark's "threads" parameter.
  std::string Recovered;
};

// Tag goes between the prefix and the names of the temporaries
// (`__lo_<Tag>grid<site>`), so that a pass that binds a launch another pass
// bound before (spawn after thresholding) declares names of its own.
BoundLaunch bindLaunch(clang::ASTContext &Ctx, const LaunchSite &Site, const LaunchText &L,
                       const std::string &Tag = "");

// The declarations of B, one per line, each indented by Indent plus two
// spaces (a declaration spanning lines keeps them aligned).
std::string boundDeclarations(const BoundLaunch &B, const std::string &Indent);

} // namespace launchopt

#endif
