// --auto's cost model: the time of a launch site's work for one parent grid
// of a nominal scenario, or of the parent grid the host launches when the
// program writes it as a constant (LaunchCosts: measured launch costs,
// guessed serial and bookkeeping costs). It compares strategies; it does not predict run
// times. Where the child's size is not a constant, every strategy is priced
// for a small and for a large child and the two are added, so that one
// without a runtime guard (launch removal serializes every child) pays for
// the large case the threshold test would have launched. A recursive launch
// with a constant grid is priced per level of its recursion: a chain (one
// block relaunching itself) per level, a recursion that fans out at its
// widest level.

#include "Candidates.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace launchopt {

namespace {

struct Scenario {
  double ParentThreads = 0;
  double ParentBlock = 0;
  double LaunchesPerThread = 0;
  double Launches = 0; // per parent grid
  double ChildThreads = 0;
  double ChildBlock = 0;
  double PaddedChildThreads = 0; // whole child blocks
  double Concurrent = 0;         // threads the GPU runs at once
  const char *Case = "";
};

enum class Recursion { None, Chain, Tree };

// A recursive child with a constant grid is the parent of the next level,
// with that grid: one launch per one-block grid keeps every level one block
// wide (a chain); more launches per level fan out into a tree.
Recursion recursionOf(const SiteFacts &F) {
  if (!F.Recursive || !F.ChildGrid || !F.ChildBlock || *F.ChildBlock <= 0)
    return Recursion::None;
  bool OneLaunchPerGrid = *F.ChildGrid <= 1 && F.OneThreadPerBlock && !F.InLoop;
  return OneLaunchPerGrid ? Recursion::Chain : Recursion::Tree;
}

std::vector<Scenario> scenariosOf(const SiteFacts &F, const LaunchCosts &C) {
  Scenario S;
  const Recursion R = recursionOf(F);
  // The parent grid the host launches when it is a constant, else the
  // nominal one.
  const bool ParentKnown = R == Recursion::None && F.ParentGrid && F.ParentBlock;
  S.ParentBlock = R != Recursion::None ? *F.ChildBlock
                  : ParentKnown        ? *F.ParentBlock
                                       : C["nominal_parent_block"];
  S.ParentThreads = R == Recursion::Chain  ? *F.ChildThreads
                    : R == Recursion::Tree ? C["nominal_tree_level_blocks"] * S.ParentBlock
                    : ParentKnown          ? *F.ParentGrid * *F.ParentBlock
                                           : C["nominal_parent_threads"];
  S.LaunchesPerThread = F.InLoop              ? C["nominal_loop_trips"]
                        : F.OneThreadPerGrid  ? 1.0 / S.ParentThreads
                        : F.OneThreadPerBlock ? 1.0 / S.ParentBlock
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
    Add(*F.ChildThreads, R == Recursion::Chain  ? "a level of the chain: "
                         : R == Recursion::Tree ? "the recursion's widest level: "
                                                : "");
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

// The threshold of a site whose serial and launched costs cross at Latency;
// a child that loops has no such point (its threads' trips grow with the
// data that also grows the child), so every child is launched.
unsigned thresholdFor(const SiteFacts &F, double LatencyUs, const LaunchCosts &C,
                      std::string &Why) {
  if (F.ChildLoops) {
    Why = "the child's threads loop: run in a parent thread, a child costs its threads times "
          "their trips; every child launched";
    return 1;
  }
  Why = "launch latency " + microseconds(LatencyUs) + " / serial child thread";
  return breakEvenThreshold(LatencyUs, C);
}

// Price notes of a launch left pending at every level of a chain.
void notePendingChain(const SiteFacts &F, const LaunchCosts &C, Estimate &E) {
  if (recursionOf(F) != Recursion::Chain)
    return;
  E.Numbers.push_back(
      {"pending launches", "one per level: a chain deeper than the pending-launch pool (" +
                               std::to_string(long(C["pending_launch_pool"])) + ") fails"});
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

// The scope an --aggregate value aggregates at: "warp", "block",
// "multiblock:8", "grid" or "host" ("threads:" packs threads at that scope;
// "threads" alone is grid). host-or-device is the host's way for a parent
// grid of at least host_min_parent_threads, multi-block scopes below; a
// grid of 0 threads asks for its device side.
llvm::StringRef aggregationScope(llvm::StringRef Value, double ParentThreads,
                                 const LaunchCosts &C) {
  Value.consume_front("threads");
  Value.consume_front(":");
  if (Value.empty())
    return "grid";
  if (Value == "host-or-device")
    return ParentThreads >= C["host_min_parent_threads"] ? "host" : "multiblock:8";
  return Value;
}

// The latency that sets the threshold at a scope: what a launch costs the
// launching thread, or the whole of the grid's launch where no thread
// launches. host-or-device takes its device side's: its small grids launch
// from the device, and 128 measured within 7% of the best threshold on 10
// of 11 pairs (bench/results/model_probe).
double thresholdLatency(llvm::StringRef Scope, const LaunchCosts &C) {
  if (Scope == "host")
    return C["host_aggregate_launch_us"];
  if (Scope == "grid")
    return C["grid_tail_relaunch_us"];
  return C["device_launch_issue_faf_us"];
}

} // namespace

Estimate costAsWritten(const SiteFacts &F, const LaunchCosts &C, const TakenSteps &) {
  Estimate E;
  notePendingChain(F, C, E);
  return priced(F, C, std::move(E), [&](const Scenario &S, std::string &How) {
    How = "device launches, " + std::string(streamName(F.Stream)) + " stream";
    return asWritten(F, S, C);
  });
}

Estimate costRemoval(const SiteFacts &F, const LaunchCosts &C, const TakenSteps &) {
  auto Probe = F.Probes.find("remove-launches=auto");
  std::string Version = "T4";
  if (Probe != F.Probes.end() && Probe->second.Parameters.count("version"))
    Version = Probe->second.Parameters.at("version");
  // The megakernel of uniform child grids (a constant configuration).
  auto AutoSays = [&](llvm::StringRef Text) {
    return Probe != F.Probes.end() && Probe->second.Parameters.count("auto") &&
           llvm::StringRef(Probe->second.Parameters.at("auto")).contains(Text);
  };
  const bool Uniform = AutoSays("uniform");
  // The megakernel records every child whose threads loop, small ones too
  // (the pass says so: lib/Analysis/ThreadLoops).
  const bool RecordsAll = AutoSays("every child is recorded");
  Estimate E;
  E.Numbers.push_back({"version", Version + " (the removal pass's own choice)"});
  return priced(F, C, std::move(E), [&](const Scenario &S, std::string &How) {
    double Work = parallelWork(S, C, S.Launches * S.PaddedChildThreads);
    llvm::StringRef Name(Version);
    if (Name.starts_with("T3")) {
      How = "the parent block runs the child blocks, a barrier each";
      double PerBlock = S.LaunchesPerThread * S.ParentBlock;
      return Work + PerBlock * (S.PaddedChildThreads / S.ChildBlock) * C["barrier_ns"] / 1000;
    }
    double Records =
        parallelWork(S, C, S.Launches) / C["serial_child_thread_ns"] * C["aggregation_record_ns"] +
        S.Launches * C["global_atomic_same_address_ns"] / 1000;
    if (Name.starts_with("megakernel") && Uniform) {
      // The host launcher falls back to the parent running its children
      // (T4) at run time where that is the better one (Fig. 7a).
      How = "the better of a persistent grid and serial in the parent thread (chosen at run time)";
      return std::min(Work + C["grid_sync_us"] + Records, serialInParent(S, C));
    }
    if (Name.starts_with("megakernel")) {
      // A small child runs in its launching thread; the others are recorded
      // and their threads packed over the persistent grid, each finding its
      // child by a search, after a second grid barrier.
      if (!RecordsAll && S.ChildThreads <= C["persistent_inline_threads"]) {
        How = "run by the launching thread in the persistent grid, one grid barrier";
        return serialInParent(S, C) + C["grid_sync_us"];
      }
      How = "recorded; the persistent grid runs the packed child threads after two grid barriers";
      double Threads = S.Launches * S.ChildThreads;
      double Search = Threads * std::log2(std::max(S.Launches, 2.0)) * C["thread_search_step_ns"] /
                      1000 / S.Concurrent;
      // Child threads that loop, dealt out to the persistent threads in
      // order, wait for the longest of them. Measured on a flat parent (tc);
      // the recursive ms and qt ran fastest removed (bench/results/auto-v2).
      double Work = parallelWork(S, C, Threads);
      if (F.ChildLoops && !F.Recursive) {
        How += " (threads that loop: x" +
               std::to_string(long(C["persistent_looping_work_factor"])) + ")";
        Work *= C["persistent_looping_work_factor"];
      }
      return Work + Search + 2 * C["grid_sync_us"] + Records;
    }
    if (Name.starts_with("T1") || Name.starts_with("T2")) {
      How = "a persistent parent grid runs the recorded children after a grid barrier";
      return Work + C["grid_sync_us"] + Records;
    }
    How = "each parent thread runs its children serially, no launch";
    return serialInParent(S, C);
  });
}

Estimate costThresholdAggregate(const SiteFacts &F, const LaunchCosts &C, const TakenSteps &Taken) {
  const std::string ValueText = valueOf(Taken, "aggregate");
  const llvm::StringRef Value = ValueText;
  const bool ThreadGranular = Value.starts_with("threads");
  const bool EitherSide = Value.ends_with("host-or-device");
  Estimate E;
  unsigned Threshold = 0;
  if (takes(Taken, "threshold")) {
    std::string Why;
    Threshold = thresholdFor(F, thresholdLatency(aggregationScope(Value, 0, C), C), C, Why);
    E.Options["threshold-value"] = std::to_string(Threshold);
    E.Numbers.push_back(
        {"threshold", std::to_string(Threshold) + " (" + Why + "; tested at run time)"});
  }
  if (takes(Taken, "coarsen") && F.ChildLoops) {
    E.Options["coarsen-factor"] = "1";
    E.Numbers.push_back({"coarsen-factor",
                         "1 (the child's threads loop: a coarsened block waits for the longest "
                         "of its child blocks)"});
  } else if (takes(Taken, "coarsen")) {
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
    const llvm::StringRef Scope = aggregationScope(Value, S.ParentThreads, C);
    const bool Host = Scope == "host";
    // Every record takes its arguments from the one pool cursor: the
    // records of a grid add up one after another, at any granularity.
    double Records = S.Launches * C["aggregation_record_ns"] / 1000;
    // Multi-block scopes widen so that a grid makes at most a few launches.
    // Not priced for a recursion: its levels ran as slowly with that bound
    // as without it (qt: 10-1,700 ms against grid's 2.5-56 ms,
    // bench/results/group-launches), so they keep a launch per 8 blocks.
    const double MostGroups =
        F.Recursive ? std::numeric_limits<double>::max() : C["multiblock_max_launches"];
    double Block = S.ParentBlock;
    double Scopes =
        Scope == "warp" ? (S.LaunchesPerThread * 32 >= 2 ? S.ParentThreads / 32 : S.Launches)
        : Scope == "block"
            ? (S.LaunchesPerThread * Block >= 2 ? S.ParentThreads / Block : S.Launches)
        : Scope == "multiblock:8" ? std::clamp(S.ParentThreads / (Block * 8), 1.0, MostGroups)
                                  : 1;
    // From the parent's launch to the end of its aggregated grids, measured
    // alike for each way (bench/host_launch_probe); scopes that launch
    // from the device add their launches' throughput.
    double Launch = Host              ? C["host_aggregate_launch_us"]
                    : Scope == "grid" ? C["grid_tail_relaunch_us"]
                                      : std::max(Scopes * C["device_launch_throughput_faf_us"],
                                                 C["device_aggregate_launch_us"]);
    // A recursive child's aggregated grid launches the next level's.
    if (F.Recursive)
      Launch = std::max(Launch, C["dependent_hop_us"]);
    double Threads =
        ThreadGranular ? S.Launches * S.ChildThreads : S.Launches * S.PaddedChildThreads;
    double Search = ThreadGranular
                        ? S.Launches * S.ChildThreads * std::log2(std::max(S.Launches, 2.0)) *
                              C["thread_search_step_ns"] / 1000 / S.Concurrent
                        : 0;
    const double WorkFactor = Host ? C["host_persistent_work_factor"] : 1.0;
    How = (EitherSide ? Scope.str() + ": " : std::string()) + std::to_string(long(Scopes)) +
          (Host ? " aggregated grid(s) launched by the host " : " aggregated launch(es) ") +
          microseconds(Launch) + ", records " + microseconds(Records) +
          (Search ? ", search " + microseconds(Search) : "");
    double Price = Records + Launch + Search + WorkFactor * parallelWork(S, C, Threads);
    // The host's persistent grid deals child threads that loop out in
    // order; measured as a whole run's ratio, so it scales the whole price.
    if (Host && F.ChildLoops && !F.Recursive) {
      How += " (threads that loop: x" +
             llvm::formatv("{0:F2}", C["host_persistent_looping_factor"]).str() + ")";
      Price *= C["host_persistent_looping_factor"];
    }
    return Price;
  });
}

Estimate costThresholdOnly(const SiteFacts &F, const LaunchCosts &C, const TakenSteps &) {
  std::string Why;
  unsigned Threshold = thresholdFor(F, issueLatency(F, C), C, Why);
  Estimate E;
  E.Options["threshold-value"] = std::to_string(Threshold);
  E.Numbers.push_back(
      {"threshold", std::to_string(Threshold) + " (" + Why + "; tested at run time)"});
  return priced(F, C, std::move(E), [&](const Scenario &S, std::string &How) {
    bool Serial = S.ChildThreads < Threshold;
    How = Serial ? "below the threshold: serial in the parent thread" : "launched as written";
    return Serial ? serialInParent(S, C) : asWritten(F, S, C);
  });
}

Estimate costSpawn(const SiteFacts &F, const LaunchCosts &C, const TakenSteps &) {
  return priced(F, C, {}, [&](const Scenario &S, std::string &How) {
    double Decisions = S.Launches * C["spawn_decision_ns"] / 1000;
    // A child that synchronizes cannot run in the parent thread: it is launched or deferred.
    if (F.ChildSynchronizes) {
      How = "controller " + microseconds(Decisions) + " + launched (the child synchronizes)";
      return Decisions + asWritten(F, S, C);
    }
    How = "controller " + microseconds(Decisions) + " + the better of serial and launched";
    return Decisions + std::min(serialInParent(S, C), asWritten(F, S, C));
  });
}

// Promotion launches a level's successor at its start; with a pool of N,
// one launch makes N successors, and the levels of the chain share the
// pools' launches and entries. Overlap runs the successor's independent
// prologue while it waits (a measured fraction of a level).
Estimate costPromotion(const SiteFacts &F, const LaunchCosts &C, const TakenSteps &Taken) {
  const std::string Value = valueOf(Taken, "promote");
  const llvm::StringRef Mode(Value);
  const bool Overlap = Mode == "PO" || Mode.starts_with("PAO:");
  unsigned Pool = 1;
  if (Mode.contains(':'))
    Mode.split(':').second.getAsInteger(10, Pool);
  Pool = std::max(Pool, 1u);
  const double Levels = C["nominal_chain_levels"];
  const double Pools = std::ceil(Levels / Pool);
  const double PoolLaunch = C["promoted_launch_us"] + Pool * C["promotion_pool_entry_ns"] / 1000;
  double PerLevel = C["promotion_handover_us"] + Pools * PoolLaunch / Levels;
  if (Overlap)
    PerLevel *= 1 - C["promotion_overlap_fraction"];
  Estimate E;
  E.Numbers.push_back({"pool", std::to_string(Pool) + " successor(s) per launch, " +
                                   std::to_string(long(Pools)) + " launch(es) over " +
                                   std::to_string(long(Levels)) + " levels"});
  if (Pool == 1)
    notePendingChain(F, C, E);
  return priced(F, C, std::move(E), [&](const Scenario &S, std::string &How) {
    How = "a level hands over by a flag " + microseconds(PerLevel) +
          (Overlap ? " (the independent prologue overlapped)" : "");
    return PerLevel + parallelWork(S, C, S.Launches * S.PaddedChildThreads);
  });
}

} // namespace launchopt
