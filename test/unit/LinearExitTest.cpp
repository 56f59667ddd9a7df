#include "Analysis/LinearExit.h"
#include "Analysis/SourceText.h"
#include "Frontend/CompilerFlags.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace launchopt;

namespace {

// The guard the analysis takes in `__global__ void k(<Params>) { <Body> }`:
// its comparison as written, prefixed with "!" where the thread returns
// when it is false; "" where there is none.
std::string exitOf(const std::string &Params, const std::string &Body) {
  std::string Code = "constexpr int kBlock = 64;\n__device__ int g;\n__global__ void k(" + Params +
                     ") {\n" + Body + "\n}\n";
  clang::tooling::CommandLineArguments Args =
      cudaParseAdjuster(defaultParseEnvironment())({"clang++"}, "test.cu");
  Args.erase(Args.begin());
  std::unique_ptr<clang::ASTUnit> Unit =
      clang::tooling::buildASTFromCodeWithArgs(Code, Args, "test.cu");
  EXPECT_TRUE(Unit);
  if (!Unit)
    return "<no AST>";
  clang::ASTContext &Ctx = Unit->getASTContext();
  for (const clang::Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    auto *F = llvm::dyn_cast<clang::FunctionDecl>(D);
    if (!F || F->getName() != "k" || !F->hasBody())
      continue;
    std::optional<LinearExit> Exit = findLinearExit(*F);
    if (!Exit)
      return "";
    return (Exit->ExitsWhenFalse ? "!" : "") +
           readableText(Ctx, Exit->Comparison->getSourceRange());
  }
  return "<no kernel>";
}

} // namespace

TEST(LinearExit, EarlyReturnThroughLocal) {
  EXPECT_EQ(exitOf("int *p, int b, int e", "int i = b + blockIdx.x * blockDim.x + threadIdx.x;\n"
                                           "if (i >= e) return;\np[i] = 1;"),
            "i >= e");
}

TEST(LinearExit, BodyUnderGuard) {
  EXPECT_EQ(exitOf("int *p, int n", "int i = threadIdx.x + blockDim.x * blockIdx.x;\n"
                                    "if (i < n) { p[i] = 1; }"),
            "!i < n");
}

TEST(LinearExit, BoundOnTheLeftAndOperandOfOr) {
  EXPECT_EQ(exitOf("int *p, int n", "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                    "if (p[0] == 0 || n <= i) return;\np[i] = 1;"),
            "n <= i");
}

TEST(LinearExit, ConstantsAndBlockDimAreAlikeForEveryThread) {
  EXPECT_EQ(exitOf("int *p, int n",
                   "int i = kBlock * gridDim.y + blockIdx.x * blockDim.x + "
                   "threadIdx.x - 3;\nif (i > n * (int)blockDim.x) return;\np[i] = 1;"),
            "i > n * (int)blockDim.x");
}

TEST(LinearExit, NotWhenTheBoundIsReadFromMemory) {
  EXPECT_EQ(exitOf("int *p", "int n = p[0];\nint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "if (i >= n) return;\np[i] = 1;"),
            "");
  EXPECT_EQ(exitOf("int *p", "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "if (i >= g) return;\np[i] = 1;"),
            "");
}

TEST(LinearExit, NotWhenTheIndexIsNotTheLinearX) {
  EXPECT_EQ(exitOf("int *p, int n", "int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);\n"
                                    "if (i >= n) return;\np[i] = 1;"),
            "");
  EXPECT_EQ(exitOf("int *p, int n", "int i = blockIdx.y * blockDim.y + threadIdx.y;\n"
                                    "if (i >= n) return;\np[i] = 1;"),
            "");
  EXPECT_EQ(exitOf("int *p, int n", "int i = blockIdx.x * blockDim.x - threadIdx.x;\n"
                                    "if (i >= n) return;\np[i] = 1;"),
            "");
}

TEST(LinearExit, NotWhenTheComparisonFallsTheWrongWay) {
  // `i < n` as an early return ends the first threads, not the last.
  EXPECT_EQ(exitOf("int *p, int n", "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                    "if (i < n) return;\np[i] = 1;"),
            "");
}

TEST(LinearExit, UnsignedComparisonNeedsAnUnsignedAddedOffset) {
  EXPECT_EQ(exitOf("int *p, unsigned n", "int i = blockIdx.x * blockDim.x + threadIdx.x - 1;\n"
                                         "if (i >= n) return;\np[i + 1] = 1;"),
            "");
  EXPECT_EQ(exitOf("int *p, unsigned n, unsigned o",
                   "unsigned i = o + blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "if (i >= n) return;\np[i] = 1;"),
            "i >= n");
}

TEST(LinearExit, NotAfterAStatementWithEffects) {
  EXPECT_EQ(exitOf("int *p, int n", "int i = blockIdx.x * blockDim.x + threadIdx.x;\np[0] = 1;\n"
                                    "if (i >= n) return;\np[i] = 1;"),
            "");
  EXPECT_EQ(exitOf("int *p, int n", "int i = atomicAdd(p, 1) + blockIdx.x * blockDim.x + "
                                    "threadIdx.x;\nif (i >= n) return;\np[i] = 1;"),
            "");
}

TEST(LinearExit, NotWhenTheGuardIsFollowedAndDoesNotReturn) {
  EXPECT_EQ(exitOf("int *p, int n", "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                    "if (i < n) { p[i] = 1; }\np[0] = 2;"),
            "");
}
