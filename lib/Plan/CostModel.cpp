// --auto's cost model: the time of a launch site's work for one parent grid
// of a nominal scenario (LaunchCosts: measured launch costs, guessed serial
// and bookkeeping costs). It compares strategies; it does not predict run
// times. Where the child's size is not a constant, every strategy is priced
// for a small and for a large child and the two are added, so that one
// without a runtime guard (launch removal serializes every child) pays for
// the large case the threshold test would have launched.

#include "Candidates.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace launchopt {

namespace {

struct Scenario {
  double ParentThreads = 0;
  double LaunchesPerThread = 0;
  double Launches = 0; // per parent grid
  double ChildThreads = 0;
  double ChildBlock = 0;
  double PaddedChildThreads = 0; // whole child blocks
  double Concurrent = 0;         // threads the GPU runs at once
  const char *Case = "";
};

std::vector<Scenario> scenariosOf(const SiteFacts &F, const LaunchCosts &C) {
  Scenario S;
  S.ParentThreads = C["nominal_parent_threads"];
  S.LaunchesPerThread = F.InLoop              ? C["nominal_loop_trips"]
                        : F.OneThreadPerBlock ? 1.0 / C["nominal_parent_block"]
                                              : 1.0;
  S.Launches = S.ParentThreads * S.LaunchesPerThread;
  S.ChildBlock = F.ChildBlock && *F.ChildBlock > 0 ? *F.ChildBlock : C["nominal_child_block"];
  S.Concurrent = double(C.Multiprocessors) * C.MaxThreadsPerMultiprocessor;
  std::vector<Scenario> All;
  auto Add = [&](double Threads, const char *Case) {
    S.ChildThreads = std::max(Threads, 1.0);
    S.PaddedChildThreads = std::ceil(S.ChildThreads / S.ChildBlock) * S.ChildBlock;
    S.Case = Case;
    All.push_back(S);
  };
  if (F.ChildThreads)
    Add(*F.ChildThreads, "");
  else {
    Add(C["nominal_child_threads"], "small child: ");
    Add(C["nominal_large_child_threads"], "large child: ");
  }
  return All;
}

std::string microseconds(double V) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof Buffer, V < 10 ? "%.2f us" : "%.0f us", V);
  return Buffer;
}

// Threads run side by side on the whole GPU.
double parallelWork(const Scenario &S, const LaunchCosts &C, double Threads) {
  return std::max(Threads / S.Concurrent, 1.0) * C["serial_child_thread_ns"] / 1000;
}

// Each launching parent thread runs its children's threads one by one.
double serialInParent(const Scenario &S, const LaunchCosts &C) {
  double PerThread = std::max(S.LaunchesPerThread, 1.0) * S.ChildThreads;
  return std::max(PerThread * C["serial_child_thread_ns"] / 1000,
                  parallelWork(S, C, S.Launches * S.ChildThreads));
}

double issueLatency(const SiteFacts &F, const LaunchCosts &C) {
  switch (F.Stream) {
  case LaunchStream::FireAndForget:
    return C["device_launch_issue_faf_us"];
  case LaunchStream::TailLaunch:
    return C["device_launch_issue_tail_us"];
  case LaunchStream::Named:
    return C["device_launch_issue_named_us"];
  case LaunchStream::Default:
    break;
  }
  return C["device_launch_issue_us"];
}

// Per launch when every parent thread launches; a named stream is priced
// as the NULL stream (not measured).
double launchThroughput(const SiteFacts &F, const LaunchCosts &C) {
  if (F.Stream == LaunchStream::FireAndForget)
    return C["device_launch_throughput_faf_us"];
  if (F.Stream == LaunchStream::TailLaunch)
    return C["device_launch_throughput_tail_us"];
  return C["device_launch_throughput_us"];
}

double asWritten(const SiteFacts &F, const Scenario &S, const LaunchCosts &C) {
  double Issue = std::max(S.Launches * launchThroughput(F, C),
                          std::max(S.LaunchesPerThread, 1.0) * issueLatency(F, C));
  // A recursive child waits for its parent's launch at every level.
  if (F.Recursive)
    Issue = std::max(Issue, C["dependent_hop_us"]);
  return Issue + parallelWork(S, C, S.Launches * S.PaddedChildThreads);
}

// The threshold at which launching (Latency, then the child's threads side
// by side) beats running the child in the parent thread, as a power of two
// between 32 and 1024 (the tuner's range).
unsigned breakEvenThreshold(double LatencyUs, const LaunchCosts &C) {
  double Threads = LatencyUs * 1000 / C["serial_child_thread_ns"];
  double Power = std::round(std::log2(std::max(Threads, 1.0)));
  return static_cast<unsigned>(std::exp2(std::clamp(Power, 5.0, 10.0)));
}

bool takes(const TakenSteps &Taken, const char *Flag) {
  return std::any_of(Taken.begin(), Taken.end(),
                     [&](const PassStep *S) { return S->Flag == Flag; });
}

std::string valueOf(const TakenSteps &Taken, const char *Flag) {
  for (const PassStep *S : Taken)
    if (S->Flag == Flag)
      return S->Value;
  return "";
}

// Sums a per-scenario price over the scenarios, noting each.
template <typename Price>
Estimate priced(const SiteFacts &F, const LaunchCosts &C, Estimate E, Price PriceOf) {
  for (const Scenario &S : scenariosOf(F, C)) {
    std::string How;
    double T = PriceOf(S, How);
    E.Microseconds += T;
    E.Numbers.push_back({std::string(S.Case) + std::to_string(long(S.ChildThreads)) +
                             " threads x " + std::to_string(long(S.Launches)) + " launches",
                         microseconds(T) + " (" + How + ")"});
  }
  return E;
}

} // namespace

Estimate costAsWritten(const SiteFacts &F, const LaunchCosts &C, const TakenSteps &) {
  return priced(F, C, {}, [&](const Scenario &S, std::string &How) {
    How = "device launches, " + std::string(streamName(F.Stream)) + " stream";
    return asWritten(F, S, C);
  });
}

Estimate costRemoval(const SiteFacts &F, const LaunchCosts &C, const TakenSteps &) {
  auto Probe = F.Probes.find("remove-launches=auto");
  std::string Version = "T4";
  if (Probe != F.Probes.end() && Probe->second.Parameters.count("version"))
    Version = Probe->second.Parameters.at("version");
  Estimate E;
  E.Numbers.push_back({"version", Version + " (the removal pass's own choice)"});
  return priced(F, C, std::move(E), [&](const Scenario &S, std::string &How) {
    double Work = parallelWork(S, C, S.Launches * S.PaddedChildThreads);
    llvm::StringRef Name(Version);
    if (Name.starts_with("T3")) {
      How = "the parent block runs the child blocks, a barrier each";
      double PerBlock = S.LaunchesPerThread * C["nominal_parent_block"];
      return Work + PerBlock * (S.PaddedChildThreads / S.ChildBlock) * C["barrier_ns"] / 1000;
    }
    if (Name.starts_with("T1") || Name.starts_with("T2")) {
      // The megakernel's host launcher falls back to the parent running its
      // children (T4) at run time where that is the better one (Fig. 7a).
      bool Fallback = Name.contains("megakernel");
      How = Fallback ? "the better of a persistent grid and serial in the parent thread (chosen "
                       "at run time)"
                     : "a persistent parent grid runs the recorded children after a grid barrier";
      double Records = parallelWork(S, C, S.Launches) / C["serial_child_thread_ns"] *
                           C["aggregation_record_ns"] +
                       S.Launches * C["global_atomic_same_address_ns"] / 1000;
      double Persistent = Work + C["grid_sync_us"] + Records;
      return Fallback ? std::min(Persistent, serialInParent(S, C)) : Persistent;
    }
    How = "each parent thread runs its children serially, no launch";
    return serialInParent(S, C);
  });
}

Estimate costThresholdAggregate(const SiteFacts &F, const LaunchCosts &C, const TakenSteps &Taken) {
  const std::string G = valueOf(Taken, "aggregate");
  const bool WholeGrid = G == "grid" || G == "threads";
  const double Latency = WholeGrid ? C["grid_tail_relaunch_us"] : C["device_launch_issue_faf_us"];
  Estimate E;
  unsigned Threshold = 0;
  if (takes(Taken, "threshold")) {
    Threshold = breakEvenThreshold(Latency, C);
    E.Options["threshold-value"] = std::to_string(Threshold);
    E.Numbers.push_back({"threshold", std::to_string(Threshold) + " (launch latency " +
                                          microseconds(Latency) +
                                          " / serial child thread; tested at run time)"});
  }
  if (takes(Taken, "coarsen")) {
    // Enough child blocks per coarsened block that the aggregated grid fits
    // the GPU's resident blocks (the gain itself is not modelled).
    const Scenario Large = scenariosOf(F, C).back();
    double Blocks = Large.Launches * Large.PaddedChildThreads / Large.ChildBlock;
    double Resident = double(C.Multiprocessors) * C.MaxBlocksPerMultiprocessor;
    double Power = std::ceil(std::log2(std::max(Blocks / Resident, 1.0)));
    unsigned Factor = static_cast<unsigned>(std::exp2(std::clamp(Power, 0.0, 3.0)));
    E.Options["coarsen-factor"] = std::to_string(Factor);
    E.Numbers.push_back({"coarsen-factor",
                         std::to_string(Factor) + " (aggregated child blocks / resident blocks)"});
  }
  return priced(F, C, std::move(E), [&](const Scenario &S, std::string &How) {
    if (Threshold && S.ChildThreads < Threshold) {
      How = "below the threshold: serial in the parent thread";
      return serialInParent(S, C);
    }
    // Each launching thread reserves its record (in parallel); at
    // multi-block and grid scope the reservations of a scope meet on one
    // global counter, one after another.
    double Block = C["nominal_parent_block"];
    double Groups = G == "multiblock:8" ? std::max(S.ParentThreads / (Block * 8), 1.0) : 1;
    double Records =
        parallelWork(S, C, S.Launches) / C["serial_child_thread_ns"] * C["aggregation_record_ns"] +
        (G == "warp" || G == "block"
             ? 0
             : S.Launches / Groups * C["global_atomic_same_address_ns"] / 1000);
    double Scopes =
        G == "warp"    ? (S.LaunchesPerThread * 32 >= 2 ? S.ParentThreads / 32 : S.Launches)
        : G == "block" ? (S.LaunchesPerThread * Block >= 2 ? S.ParentThreads / Block : S.Launches)
        : G == "multiblock:8" ? S.ParentThreads / (Block * 8)
                              : 1;
    double Launch = WholeGrid ? C["grid_tail_relaunch_us"]
                              : std::max(Scopes * C["device_launch_throughput_faf_us"],
                                         C["device_launch_issue_faf_us"]);
    double Threads =
        G == "threads" ? S.Launches * S.ChildThreads : S.Launches * S.PaddedChildThreads;
    double Search = G == "threads"
                        ? S.Launches * S.ChildThreads * std::log2(std::max(S.Launches, 2.0)) *
                              C["thread_search_step_ns"] / 1000 / S.Concurrent
                        : 0;
    How = std::to_string(long(Scopes)) + " aggregated launch(es) " + microseconds(Launch) +
          ", records " + microseconds(Records) + (Search ? ", search " + microseconds(Search) : "");
    return Records + Launch + Search + parallelWork(S, C, Threads);
  });
}

Estimate costThresholdOnly(const SiteFacts &F, const LaunchCosts &C, const TakenSteps &) {
  unsigned Threshold = breakEvenThreshold(issueLatency(F, C), C);
  Estimate E;
  E.Options["threshold-value"] = std::to_string(Threshold);
  E.Numbers.push_back({"threshold", std::to_string(Threshold) + " (tested at run time)"});
  return priced(F, C, std::move(E), [&](const Scenario &S, std::string &How) {
    bool Serial = S.ChildThreads < Threshold;
    How = Serial ? "below the threshold: serial in the parent thread" : "launched as written";
    return Serial ? serialInParent(S, C) : asWritten(F, S, C);
  });
}

Estimate costSpawn(const SiteFacts &F, const LaunchCosts &C, const TakenSteps &) {
  return priced(F, C, {}, [&](const Scenario &S, std::string &How) {
    double Decisions = S.Launches * C["spawn_decision_ns"] / 1000;
    How = "controller " + microseconds(Decisions) + " + the better of serial and launched";
    return Decisions + std::min(serialInParent(S, C), asWritten(F, S, C));
  });
}

Estimate costPromotion(const SiteFacts &F, const LaunchCosts &C, const TakenSteps &) {
  return priced(F, C, {}, [&](const Scenario &S, std::string &How) {
    How = "successor launched early, released by a flag";
    return C["grid_sync_us"] + parallelWork(S, C, S.Launches * S.PaddedChildThreads);
  });
}

} // namespace launchopt
