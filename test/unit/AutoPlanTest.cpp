// --auto's cost model and choice on the facts of the bench's sites, with the
// H100 constants shipped in gpus/h100-launch.json: the choices the GPU runs
// measured best (bench/results/auto, bench/results/promotion).

#include "Plan/SitePlan.h"
#include "gtest/gtest.h"

namespace launchopt {
namespace {

LaunchCosts h100() {
  llvm::Expected<LaunchCosts> C = loadLaunchCosts(LAUNCHOPT_LAUNCH_COSTS);
  if (!C) {
    ADD_FAILURE() << llvm::toString(C.takeError());
    return {};
  }
  return *C;
}

void takes(SiteFacts &F, std::initializer_list<const char *> Keys) {
  for (const char *Key : Keys)
    F.Probes[Key].Applied = true;
}

void refuses(SiteFacts &F, const char *Key, const char *Reason) { F.Probes[Key].Reason = Reason; }

// A single-block kernel whose thread 0 relaunches it for the next step (sc).
SiteFacts chainSite() {
  SiteFacts F;
  F.Parent = F.Child = "sc_step";
  F.Recursive = F.OneThreadPerBlock = F.ParentHostLaunched = true;
  F.ChildSynchronizes = F.ChildUsesSharedMemory = true;
  F.ChildGrid = 1;
  F.ChildBlock = 256;
  F.ChildThreads = 256;
  takes(F, {"coarsen", "aggregate=warp", "aggregate=block", "aggregate=multiblock:8",
            "aggregate=grid", "spawn", "promote", "promote=PO", "promote=PA:32", "promote=PAO:32",
            "promote=PA:1024", "promote=PAO:1024"});
  refuses(F, "threshold", "child uses __syncthreads");
  refuses(F, "aggregate=threads", "child uses __syncthreads");
  refuses(F, "aggregate=host", "the parent is recursive");
  refuses(F, "aggregate=threads:host", "the parent is recursive");
  refuses(F, "remove-launches=auto", "recursion");
  return F;
}

std::string choice(const ProgramPlan &Plan) {
  std::string Choice = Plan.Decisions.at(0).Parameters.at("choice");
  return Choice.substr(0, Choice.find(" ("));
}

double promotionPrice(const SiteFacts &F, const LaunchCosts &C, const char *Mode) {
  PassStep Step{"promote", Mode, true};
  return costPromotion(F, C, {&Step}).Microseconds;
}

TEST(AutoPlan, ChainTakesPromotionWithOverlapAndALargePool) {
  LaunchCosts C = h100();
  ProgramPlan Plan = planProgram({chainSite()}, 1, C);
  EXPECT_EQ(choice(Plan), "P:PAO:1024");
  ASSERT_EQ(Plan.Passes.size(), 1u);
  EXPECT_EQ(Plan.Passes[0].Flag, "promote");
  EXPECT_EQ(Plan.Passes[0].Value, "PAO:1024");
}

// The ranking measured at 1,000 levels: PAO1024 < PA1024 < PAO < PA < naive
// CDP < PO < P (bench/results/promotion/summary.txt).
TEST(AutoPlan, PromotionModesRankAsMeasured) {
  LaunchCosts C = h100();
  SiteFacts F = chainSite();
  double AsWritten = costAsWritten(F, C, {}).Microseconds;
  EXPECT_LT(promotionPrice(F, C, "PAO:1024"), promotionPrice(F, C, "PA:1024"));
  EXPECT_LT(promotionPrice(F, C, "PA:1024"), promotionPrice(F, C, "PAO:32"));
  EXPECT_LT(promotionPrice(F, C, "PAO:32"), promotionPrice(F, C, "PA:32"));
  EXPECT_LT(promotionPrice(F, C, "PA:32"), AsWritten);
  EXPECT_LT(AsWritten, promotionPrice(F, C, "PO"));
  EXPECT_LT(promotionPrice(F, C, "PO"), promotionPrice(F, C, ""));
}

TEST(AutoPlan, UnpooledPromotionNotesThePendingLaunchLimit) {
  LaunchCosts C = h100();
  SiteFacts F = chainSite();
  PassStep Basic{"promote", "PO", true}, Pooled{"promote", "PAO:32", true};
  auto Notes = [](const Estimate &E) {
    for (const auto &[Key, Value] : E.Numbers)
      if (Key == "pending launches")
        return true;
    return false;
  };
  EXPECT_TRUE(Notes(costPromotion(F, C, {&Basic})));
  EXPECT_FALSE(Notes(costPromotion(F, C, {&Pooled})));
}

// A recursion that fans out (qt: four child blocks per launch) is priced at
// its widest level, where launches per group of parent blocks are thousands
// and one aggregated launch per level wins.
TEST(AutoPlan, FanningOutRecursionAggregatesPerLevel) {
  SiteFacts F;
  F.Parent = F.Child = "qt_build";
  F.Recursive = F.OneThreadPerBlock = F.ParentHostLaunched = true;
  F.ChildSynchronizes = F.ChildUsesSharedMemory = true;
  F.ChildGrid = 4;
  F.ChildBlock = 128;
  F.ChildThreads = 512;
  takes(F, {"coarsen", "aggregate=warp", "aggregate=block", "aggregate=multiblock:8",
            "aggregate=grid", "spawn"});
  refuses(F, "threshold", "child uses __syncthreads");
  refuses(F, "promote", "the successor's grid is not a single block");
  ProgramPlan Plan = planProgram({F}, 1, h100());
  EXPECT_EQ(choice(Plan), "C+A:grid");
  // Not coarsened where the coarsened copy would put the recursion's
  // launches in a per-block function, which aggregation leaves.
  F.Probes["coarsen"].Parameters["loop-body"] = "a per-block function (the child returns early)";
  Plan = planProgram({F}, 1, h100());
  EXPECT_EQ(choice(Plan), "A:grid");
}

// A launch of a child that launches kernels of its own (a recursion's first
// call) is not coarsened into per-block functions when it is aggregated, and
// a threshold that would launch every child is left out: both would hide
// the child's launches from aggregation in device functions.
TEST(AutoPlan, LaunchingChildIsNeitherCoarsenedNorThresholdedInVain) {
  SiteFacts F;
  F.Parent = "sortSegments";
  F.Child = "quicksort";
  F.ChildLaunches = F.ChildLoops = F.ParentHostLaunched = true;
  F.ChildGrid = F.ChildBlock = F.ChildThreads = 1;
  takes(F, {"threshold", "coarsen", "aggregate=warp", "aggregate=block", "aggregate=multiblock:8",
            "aggregate=grid"});
  F.Probes["coarsen"].Parameters["loop-body"] = "a per-block function (the child returns early)";
  ProgramPlan Plan = planProgram({F}, 1, h100());
  EXPECT_EQ(choice(Plan).rfind("A:", 0), 0u) << choice(Plan);
  for (const PlannedPass &P : Plan.Passes) {
    EXPECT_NE(P.Flag, "coarsen");
    EXPECT_NE(P.Flag, "threshold");
  }
}

// A child whose threads loop (tc's list intersection) launches every child
// and is not coarsened: the tuned configuration (threshold 1, factor 1).
TEST(AutoPlan, LoopingChildLaunchesEveryChildUncoarsened) {
  SiteFacts F;
  F.Parent = "tc_vertices";
  F.Child = "tc_intersect";
  F.ParentHostLaunched = true;
  F.ChildLoops = true;
  F.ChildBlock = 32;
  takes(F, {"threshold", "coarsen", "aggregate=warp", "aggregate=block", "aggregate=multiblock:8",
            "aggregate=grid", "aggregate=threads"});
  ProgramPlan Plan = planProgram({F}, 1, h100());
  std::map<std::string, std::string> Options;
  for (const PlannedPass &P : Plan.Passes)
    Options.insert(P.Options.begin(), P.Options.end());
  EXPECT_EQ(Options["threshold-value"], "1");
  EXPECT_EQ(Options["coarsen-factor"], "1");

  F.ChildLoops = false;
  Plan = planProgram({F}, 1, h100());
  Options.clear();
  for (const PlannedPass &P : Plan.Passes)
    Options.insert(P.Options.begin(), P.Options.end());
  EXPECT_NE(Options["threshold-value"], "1");
}

// Where the host may launch the aggregated grid after the parent, its
// measured 17.7 us beats the device's tail-launched grid (28.2 us).
TEST(AutoPlan, HostLaunchedAggregationBeatsTheGridTail) {
  SiteFacts F;
  F.Parent = "spmv_rows";
  F.Child = "spmv_row_products";
  F.ParentHostLaunched = true;
  F.ChildBlock = 32;
  takes(F, {"threshold", "coarsen", "aggregate=grid", "aggregate=host"});
  refuses(F, "aggregate=warp", "test");
  ProgramPlan Plan = planProgram({F}, 1, h100());
  EXPECT_EQ(choice(Plan), "T+C+A:host");

  F.Probes["aggregate=host"] = {false, "a launch after the parent's reads the child's results", {}};
  Plan = planProgram({F}, 1, h100());
  EXPECT_EQ(choice(Plan), "T+C+A:grid");
}

// A host-launched parent of a degree-sized child that every aggregation
// takes, the host's ways too.
SiteFacts hostLaunchedSite() {
  SiteFacts F;
  F.Parent = "bfs_expand_frontier";
  F.Child = "bfs_visit_neighbors";
  F.ParentHostLaunched = true;
  F.ChildBlock = 64;
  takes(F, {"threshold", "coarsen", "aggregate=warp", "aggregate=block", "aggregate=multiblock:8",
            "aggregate=grid", "aggregate=threads", "aggregate=host", "aggregate=threads:host",
            "aggregate=host-or-device", "aggregate=threads:host-or-device"});
  refuses(F, "remove-launches=auto", "test");
  return F;
}

std::map<std::string, std::string> optionsOf(const ProgramPlan &Plan) {
  std::map<std::string, std::string> Options;
  for (const PlannedPass &P : Plan.Passes)
    Options.insert(P.Options.begin(), P.Options.end());
  return Options;
}

// The host's way (17.7 us measured from the parent's launch to the end of
// the aggregated grid) beats the device's multi-block one (26.6 us) for the
// nominal grid; host-or-device, listed first, wins the tie with host and
// keeps multi-block's threshold (its small grids launch from the device).
TEST(AutoPlan, HostOrDeviceTakesAHostLaunchedParent) {
  ProgramPlan Plan = planProgram({hostLaunchedSite()}, 1, h100());
  EXPECT_EQ(choice(Plan), "T+C+A:host-or-device");
  EXPECT_EQ(optionsOf(Plan)["threshold-value"], "128");
  EXPECT_NE(Plan.Decisions.at(0).Parameters.at("rejected").find("T+C+A:host: "), std::string::npos);
}

// A parent grid the host writes as a constant below host_min_parent_threads
// runs host-or-device's device side: priced as multi-block, no longer below
// host's price.
TEST(AutoPlan, HostOrDevicePricesSmallConstantGridsAsMultiBlock) {
  LaunchCosts C = h100();
  SiteFacts Small = hostLaunchedSite();
  Small.ParentGrid = 8;
  Small.ParentBlock = 256;
  PassStep Threshold{"threshold", "", false}, Either{"aggregate", "host-or-device", true},
      Block{"aggregate", "multiblock:8", true};
  Estimate E = costThresholdAggregate(Small, C, {&Threshold, &Either});
  EXPECT_NE(E.Numbers.back().second.find("multiblock:8: "), std::string::npos);
  EXPECT_DOUBLE_EQ(E.Microseconds,
                   costThresholdAggregate(Small, C, {&Threshold, &Block}).Microseconds);
  SiteFacts Large = hostLaunchedSite();
  Large.ParentGrid = 256;
  Large.ParentBlock = 256;
  EXPECT_NE(
      costThresholdAggregate(Large, C, {&Threshold, &Either}).Numbers.back().second.find("host: "),
      std::string::npos);
}

// A child whose threads loop ran 1.62x slower in the host's persistent grid
// than at multi-block granularity (tc kron16): it stays on the device.
TEST(AutoPlan, LoopingChildStaysOffTheHostsPersistentGrid) {
  SiteFacts F = hostLaunchedSite();
  F.ChildLoops = true;
  ProgramPlan Plan = planProgram({F}, 1, h100());
  EXPECT_EQ(choice(Plan), "T+C+A:multiblock:8");
}

// A degree-sized child of independent threads (bfs, sssp), which every
// pass takes.
SiteFacts degreeSizedSite(const char *Version, const char *Why) {
  SiteFacts F;
  F.Parent = "bfs_expand_frontier";
  F.Child = "bfs_visit_neighbors";
  F.ParentHostLaunched = true;
  F.ChildBlock = 64;
  takes(F, {"threshold", "coarsen", "aggregate=warp", "aggregate=block", "aggregate=multiblock:8",
            "aggregate=grid", "aggregate=threads", "spawn"});
  refuses(F, "aggregate=host", "test");
  refuses(F, "aggregate=threads:host", "test");
  F.Probes["remove-launches=auto"] = {true, "", {{"version", Version}, {"auto", Why}}};
  return F;
}

// The removal pass's megakernel runs a small child in its launching thread
// after one grid barrier, and packs a large child's threads (each finding
// its child by a search) after a second: priced so, it costs less than
// running every child in its parent thread (T4).
TEST(AutoPlan, MegakernelRunsSmallChildrenInlineAndPacksLargeOnes) {
  LaunchCosts C = h100();
  SiteFacts Mega = degreeSizedSite("megakernel (CB*/CK* -> PB*: packed child threads, T1 or T2)",
                                   "megakernel (...): child grids of data-dependent sizes: ...");
  Estimate E = costRemoval(Mega, C, {});
  ASSERT_EQ(E.Numbers.size(), 3u);
  EXPECT_NE(E.Numbers[1].second.find("one grid barrier"), std::string::npos);
  EXPECT_NE(E.Numbers[2].second.find("two grid barriers"), std::string::npos);
  SiteFacts ThreadRun = degreeSizedSite("T4 (CKi -> PTi)", "T4 (CKi -> PTi): ...");
  EXPECT_LT(E.Microseconds, costRemoval(ThreadRun, C, {}).Microseconds);
  // The megakernel of uniform children keeps the host's run-time fallback.
  SiteFacts Uniform =
      degreeSizedSite("megakernel (CB*/CK* -> PB*: packed child threads, T1 or T2)",
                      "megakernel (...): uniform child grids (a constant configuration): ...");
  EXPECT_NE(costRemoval(Uniform, C, {}).Numbers[1].second.find("chosen at run time"),
            std::string::npos);
}

// A child whose threads loop is recorded by the megakernel whatever its
// size: the small scenario is priced as recorded and packed too.
TEST(AutoPlan, MegakernelRecordsLoopingChildrenOfEverySize) {
  LaunchCosts C = h100();
  SiteFacts Looping = degreeSizedSite(
      "megakernel (CB*/CK* -> PB*: packed child threads, T1 or T2)",
      "megakernel (...): child grids of data-dependent sizes: every child is recorded (its "
      "threads run loops, so few threads may still be much work), ...");
  Estimate E = costRemoval(Looping, C, {});
  ASSERT_EQ(E.Numbers.size(), 3u);
  EXPECT_NE(E.Numbers[1].second.find("two grid barriers"), std::string::npos);
  EXPECT_NE(E.Numbers[2].second.find("two grid barriers"), std::string::npos);
}

// Launches of one parent thread into one ordered stream take one candidate:
// a removed child and an aggregated one would lose their order, and each
// pass leaves a launch whose partners another pass took.
TEST(AutoPlan, LaunchesOfOneOrderedStreamTakeOneCandidate) {
  SiteFacts Large = degreeSizedSite("T4 (CKi -> PTi)", "T4 (CKi -> PTi): ...");
  Large.LaunchId = 1;
  SiteFacts Small = degreeSizedSite("T4 (CKi -> PTi)", "T4 (CKi -> PTi): ...");
  Small.LaunchId = 2;
  Small.Child = "bfs_count";
  Small.ChildGrid = 1;
  Small.ChildBlock = Small.ChildThreads = 32;
  ProgramPlan Apart = planProgram({Large, Small}, 1, h100());
  auto ChoiceOf = [](const ProgramPlan &Plan, size_t I) {
    std::string Choice = Plan.Decisions.at(I).Parameters.at("choice");
    return Choice.substr(0, Choice.find(" ("));
  };
  ASSERT_NE(ChoiceOf(Apart, 0), ChoiceOf(Apart, 1)); // the case the rule is for

  Small.OrderedPartners = {1};
  ProgramPlan Together = planProgram({Large, Small}, 1, h100());
  EXPECT_EQ(ChoiceOf(Together, 0), ChoiceOf(Together, 1));
  bool Noted = false;
  for (const LaunchRemark &R : Together.Decisions)
    if (R.Parameters.count("program"))
      Noted |= R.Parameters.at("program").find("share an ordered stream") != std::string::npos;
  EXPECT_TRUE(Noted);
}

// A recursive child's launches of itself that the persistent grid of the
// removed parent launch records are no partners of that launch: they stay
// as written (another pass's edits would hide them from the grid's copies),
// and the parent's launch keeps its removal.
TEST(AutoPlan, RecursionRecordedByPersistentGridStaysAsWritten) {
  SiteFacts Start = degreeSizedSite("megakernel (CB*/CK* -> PB*: packed child threads, T1 or T2)",
                                    "megakernel (...): child grids of data-dependent sizes: ...");
  Start.LaunchId = 3;
  Start.Parent = "sortSegments";
  Start.Child = "quicksort";
  Start.ChildLaunches = true;
  auto Own = [](unsigned Id, unsigned Partner) {
    SiteFacts F;
    F.LaunchId = Id;
    F.Parent = F.Child = "quicksort";
    F.Recursive = F.ChildLaunches = true;
    F.ChildGrid = F.ChildBlock = F.ChildThreads = 1;
    takes(F, {"aggregate=warp", "aggregate=block", "aggregate=grid"});
    F.Probes["remove-launches=auto"] = {
        false, "recursion", {{"recorded-by", "the persistent grid of 'sortSegments'"}}};
    F.OrderedPartners = {Partner};
    return F;
  };
  ProgramPlan Plan = planProgram({Start, Own(1, 2), Own(2, 1)}, 1, h100());
  auto ChoiceOf = [&](size_t I) {
    std::string Choice = Plan.Decisions.at(I).Parameters.at("choice");
    return Choice.substr(0, Choice.find(" ("));
  };
  EXPECT_EQ(ChoiceOf(0).rfind("R", 0), 0u) << ChoiceOf(0);
  EXPECT_EQ(ChoiceOf(1), "as written");
  EXPECT_EQ(ChoiceOf(2), "as written");
  ASSERT_TRUE(Plan.Decisions.at(1).Parameters.count("program"));
  EXPECT_NE(Plan.Decisions.at(1).Parameters.at("program").find("records this launch"),
            std::string::npos);
  // The remark's message alone (all a remark on standard error shows) says why.
  EXPECT_FALSE(Plan.Decisions.at(1).Applied);
  EXPECT_EQ(Plan.Decisions.at(1).Message.rfind("kept as written: ", 0), 0u);
  EXPECT_NE(Plan.Decisions.at(1).Message.find("records this launch"), std::string::npos)
      << Plan.Decisions.at(1).Message;
}

} // namespace
} // namespace launchopt
