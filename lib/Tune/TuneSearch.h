#ifndef LAUNCHOPT_TUNE_TUNESEARCH_H
#define LAUNCHOPT_TUNE_TUNESEARCH_H

// The search half of `launchopt tune`: the configuration space of the three
// aggregation-pipeline parameters and two ways to search it. Plain C++17 with
// no LLVM or Clang, so that the run half (launchopt-tune) builds anywhere.

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// launchopt's default LAUNCHOPT_AGG_THRESHOLD: a warp or block scope with
// fewer records launches them one by one.
constexpr unsigned DefaultAggThreshold = 2;

// One point of the space: the LAUNCHOPT_THRESHOLD, LAUNCHOPT_CFACTOR and
// LAUNCHOPT_AGG_THRESHOLD macro values and the --aggregate granularity of the
// transformed file.
struct TuneConfig {
  unsigned Threshold = 256;
  unsigned CoarsenFactor = 4;
  std::string Granularity = "block";
  unsigned AggThreshold = DefaultAggThreshold;

  bool operator==(const TuneConfig &O) const {
    return Threshold == O.Threshold && CoarsenFactor == O.CoarsenFactor &&
           Granularity == O.Granularity && AggThreshold == O.AggThreshold;
  }
  bool operator!=(const TuneConfig &O) const { return !(*this == O); }
};

struct TuneSpace {
  std::vector<unsigned> Thresholds;
  std::vector<unsigned> CoarsenFactors;
  std::vector<std::string> Granularities;
  // Swept at warp and block granularity only, where it applies; the other
  // granularities take the first value.
  std::vector<unsigned> AggThresholds = {DefaultAggThreshold};

  // Every configuration, granularity outermost (one transformed file each).
  std::vector<TuneConfig> configs() const;
  bool contains(const TuneConfig &C) const;
};

// Whether LAUNCHOPT_AGG_THRESHOLD changes the code of a granularity: only
// warp and block scopes may launch their records one by one.
bool aggThresholdApplies(const std::string &Granularity);

// launchopt's own defaults (threshold 256, factor 4, block aggregation).
TuneConfig defaultTuneConfig();

// "t256_c4_block", with "_a<N>" for an aggregation threshold other than the
// default; a granularity's ':' is dropped (multiblock:8 -> multiblock8) so the
// name can be a file name.
std::string configName(const TuneConfig &C);
// The granularity as a file-name part (multiblock:8 -> multiblock8).
std::string granularityFileName(const std::string &Granularity);
// "-DLAUNCHOPT_THRESHOLD=256 -DLAUNCHOPT_CFACTOR=4", and
// "-DLAUNCHOPT_AGG_THRESHOLD=<N>" for a threshold other than the default.
std::string configDefines(const TuneConfig &C);

// Granularity as --aggregate takes it: warp, block, grid or multiblock:N (N > 0).
bool isValidGranularity(const std::string &Granularity);
// "32,128,256" -> numbers; nullopt for an empty list, an empty item, zero,
// or anything that is not a positive decimal number.
std::optional<std::vector<unsigned>> parseUnsignedList(const std::string &Text);
// "warp,block" -> items; nullopt for an empty list or an empty item.
std::optional<std::vector<std::string>> parseNameList(const std::string &Text);

// The inverse of the two parsers: "32,128".
std::string formatList(const std::vector<unsigned> &Values);
std::string formatList(const std::vector<std::string> &Names);

// Fills Space from the comma-separated lists; returns "" or the usage error
// (an empty list, a bad number, an unknown granularity).
std::string parseTuneSpace(const std::string &Thresholds, const std::string &CoarsenFactors,
                           const std::string &Granularities, TuneSpace &Space,
                           const std::string &AggThresholds = "2");

// Measures one configuration: its time in milliseconds, or nullopt when it
// failed (build, run, verification, or no time in the output).
using MeasureFn = std::function<std::optional<double>(const TuneConfig &)>;

struct TuneSearchResult {
  std::optional<TuneConfig> Best; // none when every run failed
  double BestMs = 0;
  unsigned Runs = 0;
};

// Every configuration once, in TuneSpace::configs() order.
TuneSearchResult exhaustiveSearch(const TuneSpace &Space, const MeasureFn &Measure);

// Coordinate descent from Start: in turn for granularity, threshold,
// coarsening factor and (at warp and block granularity) aggregation
// threshold, measure each untried value of that one parameter with
// the others at the current best, move to the fastest; repeat while a sweep
// improves. Never measures a configuration twice nor more than Budget in all;
// a failed configuration is never chosen. Start must be in Space (else the
// first configuration of the space is used).
TuneSearchResult guidedSearch(const TuneSpace &Space, const TuneConfig &Start, unsigned Budget,
                              const MeasureFn &Measure);

// A configuration and the times of its confirmation runs.
struct ConfirmedTimes {
  TuneConfig Config;
  std::vector<double> Ms; // one per round while every run succeeded
  bool Failed = false;    // a run failed: it cannot be chosen
  double median() const;
};

struct ConfirmResult {
  std::vector<ConfirmedTimes> Candidates; // in the order given
  std::optional<TuneConfig> Best;         // lowest median; none when all failed
  double BestMs = 0;
  unsigned Runs = 0;
};

// The Count configurations with the lowest times, each once (a configuration
// measured twice counts with its lower time); ties keep the first seen.
std::vector<TuneConfig> fastestConfigs(const std::vector<std::pair<TuneConfig, double>> &Times,
                                       unsigned Count);

// Runs every candidate once per round, the rounds one after another, so that
// a slow spell of the machine (or a slow process) hits them alike; the best
// is the lowest median. A search's single run of a configuration cannot tell
// apart configurations closer than the spread between processes.
ConfirmResult confirmBest(const std::vector<TuneConfig> &Candidates, unsigned Rounds,
                          const MeasureFn &Measure);

} // namespace launchopt

#endif
