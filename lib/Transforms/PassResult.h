#ifndef LAUNCHOPT_TRANSFORMS_PASSRESULT_H
#define LAUNCHOPT_TRANSFORMS_PASSRESULT_H

#include "Analysis/LaunchSites.h"
#include "Rewrite/SourceEdits.h"
#include <map>
#include <string>
#include <vector>

namespace launchopt {

// What one pass did, or why not, at one launch site (or at another call the
// pass rewrites).
struct LaunchRemark {
  unsigned LaunchId = 0;
  PresumedPosition Position;
  // The launch is in code an earlier pass of the same run generated (e.g.
  // the coarsened copy of a child); Position is where that code went.
  bool InGeneratedCode = false;
  std::string Pass;
  std::string Parent;
  std::string Child;
  bool Applied = false;
  std::string Message; // the reason when not applied
  // Empty for a launch; else the name of what the remark is about (a call
  // such as "cudaMalloc"), and Message says what was done to it.
  std::string Subject;
  // Advice about code the pass leaves as written (with a Subject): neither
  // applied nor refused.
  bool Note = false;
  std::map<std::string, std::string> Parameters;
  std::vector<std::string> Warnings;
};

// A remark for Site from Pass, not applied until the pass says so.
inline LaunchRemark remarkFor(const LaunchSite &Site, const char *Pass) {
  LaunchRemark R;
  R.LaunchId = Site.Id;
  R.Position = Site.Position;
  R.Pass = Pass;
  R.Parent = Site.ParentName;
  R.Child = Site.ChildName;
  return R;
}

// Every pass returns edits to the original text plus one remark per launch
// site it considered.
struct PassResult {
  SourceEdits Edits;
  std::vector<LaunchRemark> Remarks;
};

} // namespace launchopt

#endif
