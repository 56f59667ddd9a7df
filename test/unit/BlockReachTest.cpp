#include "Analysis/BlockReach.h"
#include "Analysis/LaunchSites.h"
#include "Frontend/CompilerFlags.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace launchopt;

namespace {

// Parses a parent whose body is Before, a launch, then After, and asks
// whether every thread of the block reaches the launch.
bool reached(const std::string &Before, const std::string &After = "") {
  std::string Code = "__global__ void child(int v) {}\n"
                     "__device__ int f(int);\n"
                     "__global__ void parent(int n, int *p) {\n" +
                     Before + " child<<<1, 32>>>(n)" + After + ";\n}\n";
  clang::tooling::CommandLineArguments Args =
      cudaParseAdjuster(defaultParseEnvironment())({"clang++"}, "test.cu");
  Args.erase(Args.begin());
  std::unique_ptr<clang::ASTUnit> Unit =
      clang::tooling::buildASTFromCodeWithArgs(Code, Args, "test.cu");
  EXPECT_TRUE(Unit);
  if (!Unit)
    return false;
  clang::ASTContext &Ctx = Unit->getASTContext();
  LaunchAnalysis A = analyzeLaunches(Ctx);
  EXPECT_EQ(A.Sites.size(), 1u);
  if (A.Sites.size() != 1)
    return false;
  return reachedByWholeBlock(Ctx, *A.Sites[0].Call, *A.Sites[0].Parent);
}

} // namespace

TEST(BlockReach, StraightLineCode) {
  EXPECT_TRUE(reached(""));
  EXPECT_TRUE(reached("int m = f(n); p[m] = 1;"));
  EXPECT_TRUE(reached("{ int m = 2; p[m] = 1; }"));
  EXPECT_TRUE(reached("", "; return"));
}

TEST(BlockReach, BranchesAndLoops) {
  EXPECT_FALSE(reached("if (n > 2)"));
  EXPECT_FALSE(reached("for (int i = 0; i < n; ++i)"));
  EXPECT_FALSE(reached("while (n--)"));
  EXPECT_FALSE(reached("(void)(n > 2 && (", ", true))"));
  EXPECT_FALSE(reached("n > 2 ? (void)0 :"));
}

TEST(BlockReach, EarlyExitsBefore) {
  EXPECT_FALSE(reached("if (n > 2) return;"));
  EXPECT_FALSE(reached("for (;;) { if (n) return; break; }"));
  EXPECT_FALSE(reached("if (n) goto done; done:"));
}
