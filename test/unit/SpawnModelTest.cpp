// The spawn controller's decision (runtime/include/launchopt/spawn.cuh),
// compiled for the host: Algorithm 1 with the pool and grid limits first.
#include "launchopt/spawn.cuh"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include <gtest/gtest.h>

using launchopt::spawn::ModelLimits;
using launchopt::spawn::ModelState;
using launchopt::spawn::shouldLaunch;

namespace {

const ModelLimits Limits{65536, 128, 132.0 * 32};

ModelState measured(unsigned long long CtasInFlight) {
  // 6.5 us to launch, a child CTA takes 10 us, 100 run at once, one child
  // thread's work takes 1 us.
  return {CtasInFlight, 4, 6500.0, 10000.0, 1000.0, 100.0};
}

} // namespace

TEST(SpawnModel, BeforeAnyChildFinishedLaunchesLargeChildrenOnly) {
  ModelState S{0, 0, 6500.0, 0.0, 0.0, 0.0};
  EXPECT_TRUE(shouldLaunch(S, Limits, 1, LAUNCHOPT_SPAWN_PRIOR_THREADS));
  EXPECT_FALSE(shouldLaunch(S, Limits, 1, LAUNCHOPT_SPAWN_PRIOR_THREADS - 1));
}

TEST(SpawnModel, ComparesEquationOneWithEquationTwo) {
  // Empty queue, 1 CTA: t_child = 6500 + 1 * 10000 / 100 = 6600 ns.
  EXPECT_TRUE(shouldLaunch(measured(0), Limits, 1, 7));   // t_parent 7000
  EXPECT_FALSE(shouldLaunch(measured(0), Limits, 1, 6));  // t_parent 6000
}

TEST(SpawnModel, QueuedCtasMakeLaunchingCostlier) {
  // 999 CTAs queued: t_child = 6500 + 1000 * 100 = 106500 ns.
  EXPECT_FALSE(shouldLaunch(measured(999), Limits, 1, 100));
  EXPECT_TRUE(shouldLaunch(measured(999), Limits, 1, 107));
}

TEST(SpawnModel, ConcurrencyIsCappedByTheGpusCtaSlots) {
  ModelState S = measured(0);
  S.concurrentCtas = 1e9;
  ModelLimits Small{65536, 128, 10.0};
  // 100 CTAs over at most 10 slots: 6500 + 100 * 1000 = 106500 ns.
  EXPECT_FALSE(shouldLaunch(S, Small, 100, 100));
  EXPECT_TRUE(shouldLaunch(S, Small, 100, 107));
}

TEST(SpawnModel, NeverBeyondTheGridLimitOrTheQueue) {
  ModelState S{0, 128, 6500.0, 0.0, 0.0, 0.0};
  EXPECT_FALSE(shouldLaunch(S, Limits, 1, 1 << 30)); // before any sample too
  S.gridsInFlight = 127;
  EXPECT_TRUE(shouldLaunch(S, Limits, 1, 1 << 30));
  S.ctasInFlight = 65536;
  EXPECT_FALSE(shouldLaunch(S, Limits, 1, 1 << 30));
}

TEST(SpawnModel, DefaultLimitsStayBelowThePendingLaunchPool) {
  ModelLimits D = launchopt::spawn::defaultLimits();
  EXPECT_EQ(D.maxGrids, 128u);
  EXPECT_LT(D.maxGrids, 2048u * 3 / 4 + 1);
  EXPECT_DOUBLE_EQ(D.maxConcurrentCtas, 132.0 * 32);
}

// A child with no serial copy is not held by the queue limit, and its grids
// in flight grow with the pool (one per 16 entries), never below the grid
// limit.
TEST(SpawnModel, BlockChildrenAreBoundedByThePool) {
  ModelLimits Large = launchopt::spawn::blockChildLimits(1u << 19);
  EXPECT_EQ(Large.maxGrids, (1u << 19) / 16);
  ModelState S{1u << 20, 4096, 6500.0, 100.0, 1.0, 64.0};
  S.pendingLaunches = (1u << 19) - 513;
  EXPECT_TRUE(launchopt::spawn::withinLimits(S, Large, 1 << 20));
  EXPECT_FALSE(launchopt::spawn::withinLimits(S, launchopt::spawn::defaultLimits(1u << 19), 1));
  S.pendingLaunches = (1u << 19) - 512;
  EXPECT_FALSE(launchopt::spawn::withinLimits(S, Large, 1));
  S.pendingLaunches = 0;
  S.gridsInFlight = (1u << 19) / 16;
  EXPECT_FALSE(launchopt::spawn::withinLimits(S, Large, 1));
  EXPECT_EQ(launchopt::spawn::blockChildLimits().maxGrids, 128u);
}

// A child that launches nothing itself has no grid limit: only the pool's
// entries stop its launches.
TEST(SpawnModel, LeafBlockChildrenAreBoundedByThePoolAlone) {
  ModelLimits Leaf = launchopt::spawn::blockChildLimits(8192, true);
  ModelState S{0, 0, 6500.0, 0.0, 0.0, 0.0};
  S.gridsInFlight = 8192 / 16;
  EXPECT_TRUE(launchopt::spawn::withinLimits(S, Leaf, 1));
  EXPECT_FALSE(launchopt::spawn::withinLimits(S, launchopt::spawn::blockChildLimits(8192), 1));
  S.pendingLaunches = 8192 - 512;
  EXPECT_FALSE(launchopt::spawn::withinLimits(S, Leaf, 1));
}

TEST(SpawnModel, PendingLaunchesStopLaunchesBeforeThePool) {
  ModelState S{0, 0, 6500.0, 0.0, 0.0, 0.0};
  ModelLimits WithPool{65536, 128, 132.0 * 32, 1536};
  S.pendingLaunches = 1535;
  EXPECT_TRUE(shouldLaunch(S, WithPool, 1, 1 << 30));
  EXPECT_TRUE(launchopt::spawn::withinLimits(S, WithPool, 1));
  S.pendingLaunches = 1536;
  EXPECT_FALSE(shouldLaunch(S, WithPool, 1, 1 << 30));
  EXPECT_FALSE(launchopt::spawn::withinLimits(S, WithPool, 1));
}

// The runtime's defaults are the values of the H100's launch-control
// description, where each constant's source is written.
TEST(SpawnModel, DefaultsAreTheGpuDescriptions) {
  auto File = llvm::MemoryBuffer::getFile(LAUNCHOPT_LAUNCH_CONTROL_GPU);
  ASSERT_TRUE(bool(File));
  llvm::Expected<llvm::json::Value> Description = llvm::json::parse((*File)->getBuffer());
  ASSERT_TRUE(bool(Description)) << llvm::toString(Description.takeError());
  const llvm::json::Object &O = *Description->getAsObject();
  auto value = [&](llvm::StringRef Key) {
    const llvm::json::Object *Entry = O.getObject(Key);
    EXPECT_TRUE(Entry && Entry->getString("source")) << Key.str();
    return Entry ? Entry->getInteger("value").value_or(-1) : -1;
  };
  EXPECT_EQ(value("spawn_launch_ns"), LAUNCHOPT_SPAWN_LAUNCH_NS);
  EXPECT_EQ(value("spawn_grid_limit"), LAUNCHOPT_SPAWN_GRID_LIMIT);
  EXPECT_EQ(value("spawn_sms"), LAUNCHOPT_SPAWN_SMS);
  EXPECT_EQ(value("spawn_cta_slots_per_sm"), LAUNCHOPT_SPAWN_CTA_SLOTS_PER_SM);
  EXPECT_EQ(value("pending_pool"), LAUNCHOPT_RUNTIME_PENDING_POOL);
  EXPECT_EQ(value("pending_reserve"), LAUNCHOPT_PENDING_RESERVE);
  EXPECT_EQ(value("spawn_max_queue"), LAUNCHOPT_SPAWN_MAX_QUEUE);
  EXPECT_EQ(value("spawn_pool_per_block_grid"), LAUNCHOPT_SPAWN_POOL_PER_BLOCK_GRID);
  launchopt::spawn::ModelLimits D = launchopt::spawn::defaultLimits();
  EXPECT_EQ(D.maxPending, 2048u - 512u);
}
