#ifndef LAUNCHOPT_PLAN_CANDIDATES_H
#define LAUNCHOPT_PLAN_CANDIDATES_H

// What --auto may choose at a launch site: each candidate is a list of pass
// steps (a registered pass's flag and value) and the cost model's estimate.
// A new strategy plugs in as one entry of autoCandidates() and, if it needs
// one, one estimate function in CostModel.cpp.

#include "LaunchCosts.h"
#include "SiteFacts.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace launchopt {

struct PassStep {
  std::string Flag;  // the registered pass's flag
  std::string Value; // its value, "" for none
  // A required step must take the site for the candidate to apply; an
  // optional one joins where it takes it (T and C of T+C+A).
  bool Required = true;

  std::string probeKey() const { return Value.empty() ? Flag : Flag + "=" + Value; }
};

// The model's time for a candidate at a site, in microseconds per parent
// grid of the nominal scenario, with the numbers it came from.
struct Estimate {
  double Microseconds = 0;
  std::vector<std::pair<std::string, std::string>> Numbers;
  // Pass options the candidate sets (threshold-value, coarsen-factor).
  std::map<std::string, std::string> Options;
};

// The steps of a candidate that take the site.
using TakenSteps = std::vector<const PassStep *>;

struct Candidate {
  std::string Name;
  std::vector<PassStep> Steps;
  Estimate (*Cost)(const SiteFacts &, const LaunchCosts &, const TakenSteps &);
};

// Every candidate, the launch as written first.
const std::vector<Candidate> &autoCandidates();

// The name of a candidate as taken at a site: its taken steps' letters and
// the flag value ("T+C+A:block", "C+A:block" where thresholding refused).
std::string takenName(const Candidate &C, const TakenSteps &Taken);

// The cost model, one function per family (CostModel.cpp).
Estimate costAsWritten(const SiteFacts &, const LaunchCosts &, const TakenSteps &);
Estimate costRemoval(const SiteFacts &, const LaunchCosts &, const TakenSteps &);
Estimate costThresholdAggregate(const SiteFacts &, const LaunchCosts &, const TakenSteps &);
Estimate costThresholdOnly(const SiteFacts &, const LaunchCosts &, const TakenSteps &);
Estimate costSpawn(const SiteFacts &, const LaunchCosts &, const TakenSteps &);
Estimate costPromotion(const SiteFacts &, const LaunchCosts &, const TakenSteps &);

} // namespace launchopt

#endif
