#include "Analysis/LaunchSites.h"
#include "Analysis/ThreadCount.h"
#include "Frontend/CompilerFlags.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace launchopt;

namespace {

// Parses a parent whose only launch uses Grid, and returns what the thread
// count recovery found for each dimension ("" where nothing was found).
struct Recovered {
  std::string Text[3];
  bool InLaunch[3] = {false, false, false};
};

Recovered recover(const std::string &Prelude, const std::string &Grid,
                  const std::string &Block = "256") {
  std::string Code = "__global__ void child(int *p) {}\n"
                     "__device__ int f(int);\n"
                     "__global__ void parent(int *p, int n, int m, int k) {\n" +
                     Prelude + "\n  child<<<" + Grid + ", " + Block + ">>>(p);\n}\n";
  clang::tooling::CommandLineArguments Args =
      cudaParseAdjuster(defaultParseEnvironment())({"clang++"}, "test.cu");
  Args.erase(Args.begin());
  std::unique_ptr<clang::ASTUnit> Unit =
      clang::tooling::buildASTFromCodeWithArgs(Code, Args, "test.cu");
  EXPECT_TRUE(Unit);
  Recovered R;
  if (!Unit)
    return R;
  clang::ASTContext &Ctx = Unit->getASTContext();
  LaunchAnalysis A = analyzeLaunches(Ctx);
  EXPECT_EQ(A.Sites.size(), 1u);
  if (A.Sites.size() != 1)
    return R;
  ThreadCount Count = recoverThreadCount(Ctx, A.Sites[0]);
  for (int D = 0; D < 3; ++D) {
    const DimensionThreads &Dim = Count.Dimensions[D];
    if (!Dim.Numerator)
      continue;
    std::optional<FileRange> Range = spelledRange(Ctx, Dim.Numerator->getSourceRange());
    R.Text[D] = Range ? textOf(Ctx, *Range) : "<no range>";
    R.InLaunch[D] = Dim.InLaunchExpression;
  }
  return R;
}

} // namespace

TEST(ThreadCount, MinusOneDivPlusOne) {
  Recovered R = recover("", "(n - 1) / 256 + 1");
  EXPECT_EQ(R.Text[0], "n");
  EXPECT_TRUE(R.InLaunch[0]);
}

TEST(ThreadCount, PlusBlockMinusOneDiv) {
  EXPECT_EQ(recover("", "(n + 256 - 1) / 256").Text[0], "n");
  EXPECT_EQ(recover("int b = 128;", "(n + b - 1) / b", "b").Text[0], "n");
}

TEST(ThreadCount, DivPlusRemainderTest) {
  EXPECT_EQ(recover("", "n / 256 + (n % 256 == 0 ? 0 : 1)").Text[0], "n");
  // As Fig. 4 (c) is literally parsed: (n/b + (n%b == 0)) ? 0 : 1.
  EXPECT_EQ(recover("", "n / 256 + (n % 256 == 0) ? 0 : 1").Text[0], "n");
}

TEST(ThreadCount, CeilOfFloatDivision) {
  EXPECT_EQ(recover("", "ceil((float)n / 256)").Text[0], "n");
  EXPECT_EQ(recover("", "ceil(n / (float)256)").Text[0], "n");
  EXPECT_EQ(recover("", "(int)ceilf(n / 256.0f)").Text[0], "n");
}

TEST(ThreadCount, DifferenceIsKeptWhole) {
  EXPECT_EQ(recover("", "(m - n + 255) / 256").Text[0], "m - n");
}

TEST(ThreadCount, Dim3ComponentsEachRecovered) {
  Recovered R = recover("", "dim3((n + 15) / 16, (m + 15) / 16)", "dim3(16, 16)");
  EXPECT_EQ(R.Text[0], "n");
  EXPECT_EQ(R.Text[1], "m");
  EXPECT_EQ(R.Text[2], "");
}

TEST(ThreadCount, FollowsIntermediateVariables) {
  Recovered R = recover("int total = n * 4; int blocks = (total + 255) / 256;", "blocks");
  EXPECT_EQ(R.Text[0], "total");
  EXPECT_FALSE(R.InLaunch[0]);
  Recovered G = recover("dim3 grid((n + 7) / 8, (m + 7) / 8);", "grid", "dim3(8, 8)");
  EXPECT_EQ(G.Text[0], "n");
  EXPECT_EQ(G.Text[1], "m");
}

TEST(ThreadCount, ModifiedIntermediateIsNotFollowed) {
  EXPECT_EQ(recover("int blocks = (n + 255) / 256; blocks += k;", "blocks").Text[0], "");
  // N re-evaluated at the launch would read a changed n.
  EXPECT_EQ(recover("int blocks = (n + 255) / 256; n = 0;", "blocks").Text[0], "");
}

TEST(ThreadCount, SideEffectsAreNotEvaluatedAgain) {
  EXPECT_EQ(recover("int blocks = (f(n) + 255) / 256;", "blocks").Text[0], "");
  // Inside the launch it is bound once, so it may be used.
  EXPECT_EQ(recover("", "(f(n) + 255) / 256").Text[0], "f(n)");
}

TEST(ThreadCount, NoDivisionMeansNothingRecovered) {
  EXPECT_EQ(recover("", "n").Text[0], "");
  EXPECT_EQ(recover("", "1", "n").Text[0], "");
}
