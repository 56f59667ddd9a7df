#include "Analysis/ConstantOperand.h"
#include "Analysis/LaunchOrder.h"
#include "Analysis/LaunchSites.h"
#include "Frontend/CompilerFlags.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace launchopt;

namespace {

std::unique_ptr<clang::ASTUnit> parse(const std::string &Code) {
  clang::tooling::CommandLineArguments Args =
      cudaParseAdjuster(defaultParseEnvironment())({"clang++"}, "test.cu");
  Args.erase(Args.begin());
  std::unique_ptr<clang::ASTUnit> Unit =
      clang::tooling::buildASTFromCodeWithArgs(Code, Args, "test.cu");
  EXPECT_TRUE(Unit);
  return Unit;
}

// The block of the only launch of a parent that starts with Prelude, as
// constantShape reads it ({0, 0, 0} when it is not a constant).
std::array<uint64_t, 3> blockShape(const std::string &Prelude, const std::string &Block) {
  std::string Code = "#include <cuda_runtime.h>\n"
                     "__global__ void child(int *p) {}\n"
                     "__device__ void touch(int &v);\n"
                     "__global__ void parent(int *p, int n) {\n" +
                     Prelude + "\n  child<<<1, " + Block + ">>>(p);\n}\n";
  std::unique_ptr<clang::ASTUnit> Unit = parse(Code);
  if (!Unit)
    return {0, 0, 0};
  clang::ASTContext &Ctx = Unit->getASTContext();
  LaunchAnalysis A = analyzeLaunches(Ctx);
  EXPECT_EQ(A.Sites.size(), 1u);
  if (A.Sites.size() != 1)
    return {0, 0, 0};
  return constantShape(Ctx, A.Sites[0].Block).value_or(std::array<uint64_t, 3>{0, 0, 0});
}

using Shape = std::array<uint64_t, 3>;

} // namespace

TEST(ConstantOperand, LiteralsAndConstants) {
  EXPECT_EQ(blockShape("", "128"), (Shape{128, 1, 1}));
  EXPECT_EQ(blockShape("", "dim3(16, 8)"), (Shape{16, 8, 1}));
  EXPECT_EQ(blockShape("const int t = 64;", "t"), (Shape{64, 1, 1}));
  EXPECT_EQ(blockShape("", "n"), (Shape{0, 0, 0}));
}

TEST(ConstantOperand, LocalsNeverWrittenAfterTheirInitialisation) {
  EXPECT_EQ(blockShape("int threads = 256;", "threads"), (Shape{256, 1, 1}));
  EXPECT_EQ(blockShape("int t = 32; int threads = t;", "threads"), (Shape{32, 1, 1}));
  EXPECT_EQ(blockShape("dim3 bs(16, 16);", "bs"), (Shape{16, 16, 1}));
  EXPECT_EQ(blockShape("int side = 8; dim3 bs(side, side, 2);", "bs"), (Shape{8, 8, 2}));
  EXPECT_EQ(blockShape("int threads = 64;", "dim3(threads)"), (Shape{64, 1, 1}));
}

TEST(ConstantOperand, LocalsThatMayBeWrittenAreNotConstants) {
  EXPECT_EQ(blockShape("int threads = 256; if (n) threads = 128;", "threads"), (Shape{0, 0, 0}));
  EXPECT_EQ(blockShape("int threads = 256; threads *= 2;", "threads"), (Shape{0, 0, 0}));
  EXPECT_EQ(blockShape("int threads = 256; touch(threads);", "threads"), (Shape{0, 0, 0}));
  EXPECT_EQ(blockShape("int threads = 256; int &r = threads; r = 1;", "threads"), (Shape{0, 0, 0}));
  EXPECT_EQ(blockShape("int threads = 256; auto f = [&] { threads = 1; }; f();", "threads"),
            (Shape{0, 0, 0}));
  EXPECT_EQ(blockShape("dim3 bs(16, 16); bs.y = n;", "bs"), (Shape{0, 0, 0}));
  EXPECT_EQ(blockShape("int threads = n;", "threads"), (Shape{0, 0, 0}));
}

namespace {

// For each launch of `parent` (in source order), how many earlier launches
// of the same thread may precede it into its stream.
std::vector<size_t> partnerCounts(const std::string &Body) {
  std::string Code = "__global__ void a(int *p) {}\n"
                     "__global__ void b(int *p) {}\n"
                     "__global__ void c(int *p) {}\n"
                     "__global__ void parent(int *p, int n) {\n" +
                     Body + "\n}\n";
  std::unique_ptr<clang::ASTUnit> Unit = parse(Code);
  std::vector<size_t> Counts;
  if (!Unit)
    return Counts;
  LaunchAnalysis A = analyzeLaunches(Unit->getASTContext());
  for (const LaunchSite &S : A.Sites)
    Counts.push_back(orderedStreamPartners(A, S).size());
  return Counts;
}

} // namespace

TEST(LaunchOrder, SequentialLaunchesAreOrdered) {
  EXPECT_EQ(partnerCounts("a<<<1, 1>>>(p); b<<<1, 1>>>(p);"), (std::vector<size_t>{0, 1}));
}

TEST(LaunchOrder, ExclusiveBranchesAreNot) {
  EXPECT_EQ(partnerCounts("if (n > 2) a<<<1, 1>>>(p); else if (n > 1) b<<<1, 1>>>(p); "
                          "else c<<<1, 1>>>(p);"),
            (std::vector<size_t>{0, 0, 0}));
  // The same branch, or a launch after the if, still follows.
  EXPECT_EQ(partnerCounts("if (n) { a<<<1, 1>>>(p); b<<<1, 1>>>(p); } else c<<<1, 1>>>(p);"),
            (std::vector<size_t>{0, 1, 0}));
  EXPECT_EQ(partnerCounts("if (n) a<<<1, 1>>>(p); else b<<<1, 1>>>(p); c<<<1, 1>>>(p);"),
            (std::vector<size_t>{0, 0, 2}));
}

TEST(LaunchOrder, ExclusiveBranchesMeetAcrossTurnsOfALoop) {
  EXPECT_EQ(partnerCounts("for (int i = 0; i < n; ++i) { if (i & 1) a<<<1, 1>>>(p); "
                          "else b<<<1, 1>>>(p); }"),
            (std::vector<size_t>{2, 2}));
}

namespace {

struct Reach {
  bool PerBlock = false, PerGrid = false;
};

// Whether the launch of `step` in Body (a kernel with a parameter n) is made
// by one thread per block, and by one per grid, when the host launches
// `step` with HostGrid blocks of HostBlock.
Reach reach(const std::string &Body, const std::string &HostBlock,
            const std::string &HostGrid = "1") {
  std::string Code = "#include <cuda_runtime.h>\n"
                     "__global__ void step(int n) {\n" +
                     Body +
                     "\n}\n"
                     "void run(int n) {\n"
                     "  dim3 b2(8, 8);\n"
                     "  step<<<" +
                     HostGrid + ", " + HostBlock + ">>>(n);\n}\n";
  std::unique_ptr<clang::ASTUnit> Unit = parse(Code);
  if (!Unit)
    return {};
  LaunchAnalysis A = analyzeLaunches(Unit->getASTContext());
  for (const LaunchSite &S : A.Sites)
    if (S.DeviceSide)
      return {S.OneThreadPerBlock, S.OneThreadPerGrid};
  ADD_FAILURE() << "no device launch";
  return {};
}

bool oneThreadPerBlock(const std::string &Guard, const std::string &HostBlock) {
  return reach("  if (" + Guard + ") step<<<1, 32>>>(n - 1);", HostBlock).PerBlock;
}

const char *const Launch = " step<<<1, 32>>>(n - 1);";

} // namespace

TEST(LaunchSites, ThreadZeroGuardAlongTheAxesTheBlocksHave) {
  // The device launch gives 32 threads along x; the host's block decides.
  EXPECT_TRUE(oneThreadPerBlock("threadIdx.x == 0", "32"));
  EXPECT_TRUE(oneThreadPerBlock("threadIdx.x == 0", "dim3(32)"));
  EXPECT_FALSE(oneThreadPerBlock("threadIdx.x == 0", "b2"));
  EXPECT_TRUE(oneThreadPerBlock("threadIdx.x == 0 && threadIdx.y == 0", "b2"));
  EXPECT_FALSE(oneThreadPerBlock("threadIdx.x == 0", "dim3(32, n)"));
}

TEST(LaunchSites, GuardsAsRealCodeWritesThem) {
  EXPECT_TRUE(reach(std::string("if (threadIdx.x != 0) return;") + Launch, "32").PerBlock);
  EXPECT_TRUE(reach(std::string("if (threadIdx.x > 0) { return; }") + Launch, "32").PerBlock);
  EXPECT_TRUE(reach(std::string("if (threadIdx.x) return;") + Launch, "32").PerBlock);
  EXPECT_TRUE(reach(std::string("int tid = threadIdx.x; if (tid == 0)") + Launch, "32").PerBlock);
  EXPECT_TRUE(reach(std::string("if (threadIdx.x != 0 || threadIdx.y != 0) return;") + Launch, "b2")
                  .PerBlock);
  EXPECT_TRUE(reach(std::string("if (threadIdx.x != 0) n = 0; else") + Launch, "32").PerBlock);
  // A linear thread index is zero only at thread (0, 0, 0).
  EXPECT_TRUE(
      reach(std::string("const int tid = threadIdx.y * blockDim.x + threadIdx.x; if (tid == 0)") +
                Launch,
            "b2")
          .PerBlock);
  EXPECT_TRUE(
      reach(std::string("int lane = threadIdx.x + 8 * threadIdx.y; if (lane) return;") + Launch,
            "b2")
          .PerBlock);
  EXPECT_TRUE(
      reach(std::string("int tid = threadIdx.x + threadIdx.y; if (tid == 0)") + Launch, "b2")
          .PerBlock);
}

TEST(LaunchSites, GuardsThatLeaveSeveralThreads) {
  EXPECT_FALSE(reach(std::string("if (threadIdx.x == 1) return;") + Launch, "32").PerBlock);
  EXPECT_FALSE(reach(std::string("if (threadIdx.x != 0) n = 0;") + Launch, "32").PerBlock);
  EXPECT_FALSE(
      reach(std::string("int tid = threadIdx.x; tid += 1; if (tid == 0)") + Launch, "32").PerBlock);
  EXPECT_FALSE(
      reach(std::string("if (threadIdx.x != 0) return; else n = 1;") + Launch, "32").PerBlock);
  EXPECT_FALSE(reach(std::string("if (threadIdx.x == 0) n = 0; else") + Launch, "32").PerBlock);
  EXPECT_FALSE(
      reach(std::string("int d = threadIdx.x - threadIdx.y; if (d == 0)") + Launch, "b2").PerBlock);
  EXPECT_FALSE(reach(std::string("if (threadIdx.x * n == 0)") + Launch, "32").PerBlock);
}

TEST(LaunchSites, OneThreadOfTheGrid) {
  std::string Guarded = std::string("if (threadIdx.x == 0 && blockIdx.x == 0)") + Launch;
  EXPECT_TRUE(reach(Guarded, "32", "16").PerGrid);
  EXPECT_FALSE(reach(Guarded, "32", "dim3(4, 4)").PerGrid);
  EXPECT_TRUE(reach(std::string("if (blockIdx.x != 0 || blockIdx.y != 0) return;\n") + Guarded,
                    "32", "dim3(4, 4)")
                  .PerGrid);
  EXPECT_FALSE(reach(std::string("if (threadIdx.x == 0)") + Launch, "32", "16").PerGrid);
}

TEST(LaunchOrder, CasesThatEndInABreakAreExclusive) {
  EXPECT_EQ(partnerCounts("switch (n) { case 0: a<<<1, 1>>>(p); break; "
                          "case 1: case 2: { b<<<1, 1>>>(p); break; } default: c<<<1, 1>>>(p); }"),
            (std::vector<size_t>{0, 0, 0}));
  // Falling through from one case into the next keeps the order.
  EXPECT_EQ(partnerCounts("switch (n) { case 0: a<<<1, 1>>>(p); case 1: b<<<1, 1>>>(p); break; "
                          "default: c<<<1, 1>>>(p); }"),
            (std::vector<size_t>{0, 1, 0}));
}
