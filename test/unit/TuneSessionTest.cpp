#include "Tune/TuneSession.h"
#include <gtest/gtest.h>

namespace launchopt {
namespace {

TEST(TuneSession, TimeOfTheLastMatchingLine) {
  EXPECT_EQ(extractTime("time_ms=3.5\nnoise\ntime_ms=2.25\n", DefaultTimeRegex), 2.25);
  EXPECT_EQ(
      extractTime("RESULT,bfs,kron20,t256_c4_block,OK,10,1.2345,1.1,1.5,\n", DefaultTimeRegex),
      1.2345);
  EXPECT_FALSE(extractTime("RESULT,bfs,kron20,x,FAILED,0,,,,rep 3: wrong\n", DefaultTimeRegex));
  EXPECT_FALSE(extractTime("nothing here\n", DefaultTimeRegex));
  EXPECT_EQ(extractTime("took 12 ms\n", "took ([0-9]+) ms"), 12.0);
  EXPECT_EQ(extractTime("7.5\n", "^[0-9.]+$"), 7.5);
  // A last matching line without a number is no time, whatever came before.
  EXPECT_FALSE(extractTime("t=1\nt=x\n", "t=(.*)"));
}

TEST(TunePlan, RoundTrip) {
  TunePlan Plan;
  Plan.Input = "apps/bfs/bfs_cdp.cu";
  Plan.Space = TuneSpace{{"block", "multiblock:8"}, {{32, 256}, {1, 4}, {2}}};
  Plan.Sources = {{"block", "bfs_cdp.block.cu"}, {"multiblock:8", "bfs_cdp.multiblock8.cu"}};
  OrError<TunePlan> Parsed = parsePlan(formatPlan(Plan));
  ASSERT_TRUE(Parsed) << Parsed.error();
  TunePlan Read = *Parsed;
  EXPECT_EQ(Read.Input, Plan.Input);
  EXPECT_EQ(Read.Space.Values, Plan.Space.Values);
  EXPECT_EQ(Read.Space.Variants, Plan.Space.Variants);
  // A swept aggregation threshold survives the plan file too.
  Plan.Space.Values[2] = {2, 16};
  Parsed = parsePlan(formatPlan(Plan));
  ASSERT_TRUE(Parsed) << Parsed.error();
  Read = *Parsed;
  EXPECT_EQ(Read.Space.Values[2], Plan.Space.Values[2]);
  EXPECT_EQ(Read.Sources, Plan.Sources);
  EXPECT_FALSE(Read.Start);
  // launchopt tune --auto's start (the cost model's choice) too; a start
  // without a value per macro is refused.
  Plan.Start = TuneConfig{"multiblock:8", {128, 8, 2}};
  Parsed = parsePlan(formatPlan(Plan));
  ASSERT_TRUE(Parsed) << Parsed.error();
  ASSERT_TRUE(Parsed->Start);
  EXPECT_EQ(*Parsed->Start, *Plan.Start);
  EXPECT_FALSE(parsePlan("start block 128\nsource block b.cu\n"));
  OrError<TunePlan> Bad = parsePlan("thresholds 1,,2\nsource block b.cu\n");
  EXPECT_FALSE(Bad);
  EXPECT_NE(Bad.error().find("line 1"), std::string::npos);
  EXPECT_FALSE(parsePlan("input x.cu\n"));
  EXPECT_NE(parsePlan("granularities warp,team\nsource warp w.cu\n")
                .error()
                .find("unknown granularity 'team'"),
            std::string::npos);
}

TEST(TuneSession, CommandChecks) {
  TuneSessionOptions O;
  O.BuildCommand = "nvcc {defines} {src} -o {exe}";
  O.RunCommand = "{exe} --reps 3";
  EXPECT_TRUE(checkTuneCommands(O));
  O.BuildCommand = "nvcc {src} -o {exe}";
  EXPECT_NE(checkTuneCommands(O).error().find("{defines}"), std::string::npos);
  O.NoBuild = true; // the build command is not needed then
  EXPECT_TRUE(checkTuneCommands(O));
  O.RunCommand = "./a.out";
  EXPECT_NE(checkTuneCommands(O).error().find("--run must contain {exe}"), std::string::npos);
  O.RunCommand = "{exe}";
  O.TimeRegex = "(unclosed";
  EXPECT_NE(checkTuneCommands(O).error().find("--time-regex"), std::string::npos);
  O.TimeRegex = DefaultTimeRegex;
  O.GuidedRuns = 0;
  EXPECT_NE(checkTuneCommands(O).error().find("--guided-runs"), std::string::npos);
}

} // namespace
} // namespace launchopt
