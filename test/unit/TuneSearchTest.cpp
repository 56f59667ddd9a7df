#include "Transforms/ChoiceGrammar.h"
#include "Tune/TuneParameters.h"
#include "Tune/TuneSearch.h"
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <set>

namespace launchopt {
namespace {

// The registry's macros, in its order: threshold, coarsening factor,
// aggregation threshold; the variant is the aggregation granularity.
enum Macro { Threshold, CoarsenFactor, AggThreshold };

TuneConfig cfg(unsigned T, unsigned F, const std::string &G, unsigned A = 2) {
  return TuneConfig{G, {T, F, A}};
}

TuneSpace space(std::vector<unsigned> T, std::vector<unsigned> F, std::vector<std::string> G,
                std::vector<unsigned> A = {2}) {
  return TuneSpace{G, {T, F, A}};
}

TuneSpace defaultSpace() {
  return space({32, 128, 256, 1024}, {1, 2, 4, 8}, {"warp", "block", "multiblock:8", "grid"});
}

double indexOf(const std::vector<unsigned> &Values, unsigned V) {
  return static_cast<double>(std::find(Values.begin(), Values.end(), V) - Values.begin());
}
double indexOf(const std::vector<std::string> &Values, const std::string &V) {
  return static_cast<double>(std::find(Values.begin(), Values.end(), V) - Values.begin());
}

// A separable cost with its minimum at (Best threshold, factor, granularity).
MeasureFn separable(const TuneSpace &Space, const TuneConfig &Best, std::vector<TuneConfig> &Log) {
  return [&Space, Best, &Log](const TuneConfig &C) -> std::optional<double> {
    Log.push_back(C);
    return 1.0 +
           std::fabs(indexOf(Space.Values[Threshold], C.Values[Threshold]) -
                     indexOf(Space.Values[Threshold], Best.Values[Threshold])) +
           2 * std::fabs(indexOf(Space.Values[CoarsenFactor], C.Values[CoarsenFactor]) -
                         indexOf(Space.Values[CoarsenFactor], Best.Values[CoarsenFactor])) +
           3 * std::fabs(indexOf(Space.Variants, C.Variant) -
                         indexOf(Space.Variants, Best.Variant));
  };
}

TEST(TuneSearch, GuidedFindsTheOptimumOfASeparableFunctionWithinTenRuns) {
  TuneSpace Space = defaultSpace();
  for (const TuneConfig &Best : Space.configs()) {
    std::vector<TuneConfig> Log;
    TuneSearchResult R = guidedSearch(Space, defaultTuneConfig(), 10, separable(Space, Best, Log));
    ASSERT_TRUE(R.Best) << configName(Best);
    EXPECT_EQ(*R.Best, Best) << "guided search missed " << configName(Best);
    EXPECT_DOUBLE_EQ(R.BestMs, 1.0);
    EXPECT_LE(R.Runs, 10u);
    EXPECT_EQ(R.Runs, Log.size());
  }
}

TEST(TuneSearch, GuidedNeverExceedsItsBudgetNorRepeatsAConfiguration) {
  TuneSpace Space = defaultSpace();
  for (unsigned Budget = 1; Budget <= 70; ++Budget) {
    std::vector<TuneConfig> Log;
    // A cost without structure keeps the descent moving around the space.
    unsigned Calls = 0;
    MeasureFn Noisy = [&](const TuneConfig &C) -> std::optional<double> {
      Log.push_back(C);
      return static_cast<double>((Calls++ * 7919) % 13);
    };
    TuneSearchResult R = guidedSearch(Space, defaultTuneConfig(), Budget, Noisy);
    EXPECT_LE(R.Runs, Budget);
    EXPECT_EQ(R.Runs, Log.size());
    std::set<std::string> Names;
    for (const TuneConfig &C : Log)
      EXPECT_TRUE(Names.insert(configName(C)).second) << "measured twice: " << configName(C);
  }
}

TEST(TuneSearch, GuidedStartsFromTheDefaults) {
  TuneSpace Space = defaultSpace();
  std::vector<TuneConfig> Log;
  guidedSearch(Space, defaultTuneConfig(), 10, separable(Space, defaultTuneConfig(), Log));
  ASSERT_FALSE(Log.empty());
  EXPECT_EQ(Log.front(), defaultTuneConfig());
}

TEST(TuneSearch, FailedConfigurationsAreNeverChosen) {
  TuneSpace Space = defaultSpace();
  TuneConfig Optimum = cfg(128, 2, "grid");
  std::vector<TuneConfig> Log;
  MeasureFn Cost = separable(Space, Optimum, Log);
  // The optimum and every grid configuration with factor 8 fail; so does the start.
  MeasureFn WithFailures = [&](const TuneConfig &C) -> std::optional<double> {
    std::optional<double> Ms = Cost(C);
    if (C == Optimum || C == defaultTuneConfig() ||
        (C.Variant == "grid" && C.Values[CoarsenFactor] == 8))
      return std::nullopt;
    return Ms;
  };
  for (unsigned Budget : {1u, 3u, 10u, 64u}) {
    TuneSearchResult Guided = guidedSearch(Space, defaultTuneConfig(), Budget, WithFailures);
    if (Budget == 1) {
      EXPECT_FALSE(Guided.Best) << "the only run failed";
      continue;
    }
    ASSERT_TRUE(Guided.Best);
    EXPECT_NE(*Guided.Best, Optimum);
    EXPECT_NE(*Guided.Best, defaultTuneConfig());
  }
  TuneSearchResult Exhaustive = exhaustiveSearch(Space, WithFailures);
  EXPECT_EQ(Exhaustive.Runs, 64u);
  ASSERT_TRUE(Exhaustive.Best);
  EXPECT_NE(*Exhaustive.Best, Optimum);
  EXPECT_DOUBLE_EQ(Exhaustive.BestMs, 2.0); // a neighbour of the failed optimum
}

TEST(TuneSearch, EverythingFailing) {
  TuneSpace Space = defaultSpace();
  MeasureFn Fails = [](const TuneConfig &) -> std::optional<double> { return std::nullopt; };
  TuneSearchResult Guided = guidedSearch(Space, defaultTuneConfig(), 10, Fails);
  EXPECT_FALSE(Guided.Best);
  EXPECT_EQ(Guided.Runs, 10u);
  EXPECT_FALSE(exhaustiveSearch(Space, Fails).Best);
}

TEST(TuneSearch, ExhaustiveRunsEveryConfigurationOnce) {
  TuneSpace Space = space({32, 256}, {1, 4, 8}, {"block", "grid"});
  std::vector<TuneConfig> Log;
  TuneSearchResult R = exhaustiveSearch(Space, separable(Space, cfg(32, 8, "grid"), Log));
  EXPECT_EQ(R.Runs, 12u);
  EXPECT_EQ(Log.size(), 12u);
  ASSERT_TRUE(R.Best);
  EXPECT_EQ(configName(*R.Best), "t32_c8_grid");
}

TEST(TuneSearch, StartOutsideTheSpaceUsesTheFirstConfiguration) {
  TuneSpace Space = space({64}, {2}, {"warp", "grid"});
  std::vector<TuneConfig> Log;
  guidedSearch(Space, defaultTuneConfig(), 10, separable(Space, cfg(64, 2, "grid"), Log));
  ASSERT_FALSE(Log.empty());
  EXPECT_EQ(configName(Log.front()), "t64_c2_warp");
  EXPECT_EQ(Log.size(), 2u);
}

TEST(TuneSearch, Lists) {
  EXPECT_EQ(parseUnsignedList("32,128,32"), (std::vector<unsigned>{32, 128}));
  EXPECT_FALSE(parseUnsignedList(""));
  EXPECT_FALSE(parseUnsignedList("32,,64"));
  EXPECT_FALSE(parseUnsignedList("0"));
  EXPECT_FALSE(parseUnsignedList("-4"));
  EXPECT_FALSE(parseUnsignedList("4x"));
  EXPECT_EQ(parseNameList("warp,grid"), (std::vector<std::string>{"warp", "grid"}));
  EXPECT_FALSE(parseNameList("warp,"));
  EXPECT_TRUE(matchChoice(tuneVariant().Grammar, "multiblock:16").has_value());
  EXPECT_FALSE(matchChoice(tuneVariant().Grammar, "multiblock").has_value());
  EXPECT_FALSE(matchChoice(tuneVariant().Grammar, "multiblock:0").has_value());
  EXPECT_FALSE(matchChoice(tuneVariant().Grammar, "thread").has_value());
  EXPECT_TRUE(parseTuneSpace({{"thresholds", "1"}, {"cfactors", "2"}, {"granularities", "warp"}}));
  EXPECT_FALSE(parseTuneSpace({{"thresholds", ""}, {"cfactors", "2"}, {"granularities", "warp"}}));
  EXPECT_NE(parseTuneSpace({{"thresholds", "1"}, {"cfactors", "2"}, {"granularities", "warp,team"}})
                .error()
                .find("unknown granularity 'team'"),
            std::string::npos);
  // A list left out takes the registry's default.
  EXPECT_EQ(parseTuneSpace({})->Variants, defaultSpace().Variants);
  EXPECT_EQ(parseTuneSpace({})->Values[Threshold], defaultSpace().Values[Threshold]);
  EXPECT_EQ(configName(cfg(32, 8, "multiblock:8")), "t32_c8_multiblock8");
  EXPECT_EQ(configDefines(cfg(32, 8, "grid")), "-DLAUNCHOPT_THRESHOLD=32 -DLAUNCHOPT_CFACTOR=8");
}

TEST(TuneSearch, AggregationThresholdIsSweptAtWarpAndBlockOnly) {
  TuneSpace Space = space({256}, {4}, {"warp", "block", "multiblock:8", "grid"}, {2, 8, 32});
  std::vector<TuneConfig> All = Space.configs();
  // Three each at warp and block, one each at the group granularities.
  ASSERT_EQ(All.size(), 8u);
  std::set<std::string> Names;
  for (const TuneConfig &C : All) {
    EXPECT_TRUE(Space.contains(C)) << configName(C);
    Names.insert(configName(C));
  }
  EXPECT_EQ(Names.size(), 8u);
  EXPECT_TRUE(Names.count("t256_c4_block_a32"));
  EXPECT_TRUE(Names.count("t256_c4_grid"));
  EXPECT_FALSE(Space.contains(cfg(256, 4, "grid", 8)));
  EXPECT_EQ(configDefines(cfg(32, 8, "warp", 8)),
            "-DLAUNCHOPT_THRESHOLD=32 -DLAUNCHOPT_CFACTOR=8 -DLAUNCHOPT_AGG_THRESHOLD=8");
  EXPECT_TRUE(macroApplies(tuneMacros()[AggThreshold], "warp"));
  EXPECT_FALSE(macroApplies(tuneMacros()[AggThreshold], "multiblock:8"));
}

TEST(TuneSearch, GuidedSearchTunesTheAggregationThreshold) {
  TuneSpace Space = space({256}, {4}, {"block", "grid"}, {2, 8, 32});
  std::vector<TuneConfig> Log;
  // Fastest at block with threshold 8; grid is slower than any block point.
  MeasureFn Cost = [&Log](const TuneConfig &C) -> std::optional<double> {
    Log.push_back(C);
    if (C.Variant == "grid")
      return 10.0;
    return C.Values[AggThreshold] == 8 ? 1.0 : 2.0;
  };
  TuneSearchResult R = guidedSearch(Space, defaultTuneConfig(), 10, Cost);
  ASSERT_TRUE(R.Best);
  EXPECT_EQ(configName(*R.Best), "t256_c4_block_a8");
  for (const TuneConfig &C : Log)
    EXPECT_TRUE(Space.contains(C)) << "tried outside the space: " << configName(C);
  OrError<TuneSpace> Parsed = parseTuneSpace({{"thresholds", "256"},
                                              {"cfactors", "4"},
                                              {"granularities", "block"},
                                              {"agg-thresholds", "2,8"}});
  ASSERT_TRUE(Parsed) << Parsed.error();
  EXPECT_EQ(Parsed->Values[AggThreshold], (std::vector<unsigned>{2, 8}));
  EXPECT_NE(parseTuneSpace({{"agg-thresholds", "0"}}).error().find("--agg-thresholds"),
            std::string::npos);
}

TuneConfig config(unsigned T, const std::string &Granularity) { return cfg(T, 4, Granularity); }

TEST(TuneSearch, FastestConfigsTakeEachConfigurationOnceAtItsLowestTime) {
  TuneConfig A = config(32, "grid"), B = config(256, "grid"), C = config(1024, "block");
  std::vector<TuneConfig> Top = fastestConfigs({{A, 5.0}, {B, 3.0}, {A, 1.0}, {C, 4.0}}, 2);
  ASSERT_EQ(Top.size(), 2u);
  EXPECT_EQ(Top[0], A); // its second run, 1.0, counts
  EXPECT_EQ(Top[1], B);
  EXPECT_EQ(fastestConfigs({{A, 2.0}}, 3).size(), 1u);
}

TEST(TuneSearch, ConfirmationPicksTheLowestMedianNotTheLuckiestRun) {
  // A was fastest once by luck (its first run); B is steadily faster after.
  TuneConfig A = config(32, "grid"), B = config(256, "grid");
  std::map<std::string, std::vector<double>> Planned{{configName(A), {1.0, 9.0, 8.0}},
                                                     {configName(B), {3.0, 3.5, 2.5}}};
  std::vector<std::string> Order;
  MeasureFn Measure = [&](const TuneConfig &C) -> std::optional<double> {
    Order.push_back(configName(C));
    std::vector<double> &Left = Planned[configName(C)];
    double Ms = Left.front();
    Left.erase(Left.begin());
    return Ms;
  };
  ConfirmResult R = confirmBest({A, B}, 3, Measure);
  ASSERT_TRUE(R.Best);
  EXPECT_EQ(*R.Best, B);
  EXPECT_DOUBLE_EQ(R.BestMs, 3.0);
  EXPECT_EQ(R.Runs, 6u);
  EXPECT_DOUBLE_EQ(R.Candidates[0].median(), 8.0);
  // In turn: a slow spell of the machine hits every candidate alike.
  std::vector<std::string> InTurn{configName(A), configName(B), configName(A),
                                  configName(B), configName(A), configName(B)};
  EXPECT_EQ(Order, InTurn);
}

TEST(TuneSearch, ConfirmationNeverPicksAConfigurationWithAFailedRun) {
  TuneConfig A = config(32, "grid"), B = config(256, "grid");
  unsigned RunsOfA = 0;
  MeasureFn Measure = [&](const TuneConfig &C) -> std::optional<double> {
    if (C == A)
      return ++RunsOfA == 2 ? std::nullopt : std::optional<double>(1.0);
    return 5.0;
  };
  ConfirmResult R = confirmBest({A, B}, 3, Measure);
  ASSERT_TRUE(R.Best);
  EXPECT_EQ(*R.Best, B);
  EXPECT_TRUE(R.Candidates[0].Failed);
  EXPECT_EQ(RunsOfA, 2u); // not run again once it failed
  EXPECT_FALSE(confirmBest({A}, 0, Measure).Best);
}

} // namespace
} // namespace launchopt
