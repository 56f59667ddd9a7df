#ifndef LAUNCHOPT_PLAN_SITEFACTS_H
#define LAUNCHOPT_PLAN_SITEFACTS_H

// What --auto knows about one device-side launch site before it chooses: the
// analysis's facts, and which passes take the site (each pass run alone on
// the input, as the coverage summary runs them).

#include "Analysis/LaunchSites.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// What one pass, run alone with one flag value, did at the site.
struct ProbeOutcome {
  bool Applied = false;
  std::string Reason; // why not, when not applied
  std::map<std::string, std::string> Parameters;
};

struct SiteFacts {
  size_t File = 0;           // index of the file in the program
  PresumedPosition Position; // in the input text
  unsigned LaunchId = 0;
  std::string Parent, Child;
  bool ChildSynchronizes = false; // barriers or warp primitives
  bool ChildUsesSharedMemory = false;
  // The child's threads may loop (ThreadLoops.h: a loop of a few constant
  // trips does not count): their work grows with the data, so running a
  // child in a parent thread costs more than its thread count says.
  bool ChildLoops = false;
  bool Recursive = false;
  bool ChildLaunches = false; // the child has device-side launches of its own
  bool InLoop = false;
  bool OneThreadPerBlock = false;
  bool OneThreadPerGrid = false;
  bool ParentHostLaunched = false; // some host code of the program launches the parent
  LaunchStream Stream = LaunchStream::Default;
  // Launch ids of the parent's launches a thread may have put into this
  // one's ordered stream before it (LaunchOrder.h): the plan gives such
  // launches one choice, since passes keep their order only when they take
  // all of them alike.
  std::vector<unsigned> OrderedPartners;
  // Child threads per launch (grid x block) and the child's block, when the
  // launch writes them as constants.
  std::optional<double> ChildThreads, ChildBlock, ChildGrid;
  // The parent's grid (blocks) and block (threads) when every host launch of
  // it writes them as constants: the largest of those launches.
  std::optional<double> ParentGrid, ParentBlock;
  unsigned Arguments = 0, UniformArguments = 0; // uniform over the parent grid
  // By probe key ("threshold", "aggregate=block").
  std::map<std::string, ProbeOutcome> Probes;
};

SiteFacts analyseSite(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                      const LaunchSite &Site, bool ParentHostLaunched);

// The facts as "key: value" pairs for the report.
std::map<std::string, std::string> describeFacts(const SiteFacts &Facts);

} // namespace launchopt

#endif
