#ifndef LAUNCHOPT_TUNE_TUNESEARCH_H
#define LAUNCHOPT_TUNE_TUNESEARCH_H

// The search half of `launchopt tune`: the configuration space of the
// tunables the pass registry declares and ways to search it. Plain C++17 with
// no LLVM or Clang, so that the run half (launchopt-tune) builds anywhere.

#include "OrError.h"
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// One point of the space: the variant (the transformed file) and the value
// of each macro, in tuneMacros() order.
struct TuneConfig {
  std::string Variant;
  std::vector<unsigned> Values;

  bool operator==(const TuneConfig &O) const { return Variant == O.Variant && Values == O.Values; }
  bool operator!=(const TuneConfig &O) const { return !(*this == O); }
};

struct TuneSpace {
  std::vector<std::string> Variants;
  // One list per macro, in tuneMacros() order. A macro that only some
  // variants read is swept at those; the others take its first value.
  std::vector<std::vector<unsigned>> Values;

  // The values of macro M tried with Variant.
  std::vector<unsigned> valuesFor(size_t M, const std::string &Variant) const;
  // Every configuration, variant outermost (one transformed file each), then
  // the macros in registry order.
  std::vector<TuneConfig> configs() const;
  bool contains(const TuneConfig &C) const;
};

// The registry's default lists.
TuneSpace defaultTuneSpace();
// launchopt's own defaults: the guided search's start (threshold 256,
// factor 4, block aggregation).
TuneConfig defaultTuneConfig();

// "t256_c4_block": the macros shown at their default, the variant, then the
// others that differ from their default ("_a8"); a variant's ':' is dropped
// (multiblock:8 -> multiblock8) so the name can be a file name.
std::string configName(const TuneConfig &C);
// The variant as a file-name part (multiblock:8 -> multiblock8).
std::string variantFileName(const std::string &Variant);
// "-DLAUNCHOPT_THRESHOLD=256 -DLAUNCHOPT_CFACTOR=4", and the macros not
// shown at their default when they differ from it.
std::string configDefines(const TuneConfig &C);

// "32,128,256" -> numbers; nullopt for an empty list, an empty item, zero,
// or anything that is not a positive decimal number.
std::optional<std::vector<unsigned>> parseUnsignedList(const std::string &Text);
// "warp,block" -> items; nullopt for an empty list or an empty item.
std::optional<std::vector<std::string>> parseNameList(const std::string &Text);

// The inverse of the two parsers: "32,128".
std::string formatList(const std::vector<unsigned> &Values);
std::string formatList(const std::vector<std::string> &Names);

// The space of the comma-separated list of each tunable (by its list
// option's name; a tunable missing from Lists takes the registry's default),
// or the usage error (an empty list, a bad number, an unknown variant).
OrError<TuneSpace> parseTuneSpace(const std::map<std::string, std::string> &Lists);
// The lists of Space by list option, the inverse of parseTuneSpace.
std::map<std::string, std::string> formatTuneSpace(const TuneSpace &Space);

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

// Coordinate descent from Start: in turn for the variant, then each macro
// in registry order (threshold, coarsening factor, aggregation threshold),
// measure each untried value of that one parameter with
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
