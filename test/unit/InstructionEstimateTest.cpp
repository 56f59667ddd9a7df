#include "Analysis/InstructionEstimate.h"
#include "Frontend/CompilerFlags.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace launchopt;

namespace {

// The estimate for `__global__ void k(float *a, float *b, int n) { <Body> }`,
// or -1 when it is unknown.
double estimate(const std::string &Body) {
  std::string Code = "__device__ float twice(float x) { return 2.0f * x; }\n"
                     "__device__ float opaque(float x);\n"
                     "__global__ void k(float *a, float *b, int n) {\n" +
                     Body + "\n}\n";
  clang::tooling::CommandLineArguments Args =
      cudaParseAdjuster(defaultParseEnvironment())({"clang++"}, "test.cu");
  Args.erase(Args.begin());
  std::unique_ptr<clang::ASTUnit> Unit = clang::tooling::buildASTFromCodeWithArgs(Code, Args);
  EXPECT_TRUE(Unit);
  if (!Unit)
    return -2;
  for (const clang::Decl *D : Unit->getASTContext().getTranslationUnitDecl()->decls())
    if (auto *F = llvm::dyn_cast<clang::FunctionDecl>(D); F && F->getName() == "k")
      return estimatedInstructions(*F).value_or(-1);
  return -2;
}

const char *const Site = "int i = blockIdx.x * blockDim.x + threadIdx.x;\n";

} // namespace

TEST(InstructionEstimate, DivisionCostsMoreThanMultiplication) {
  double Times = estimate(std::string(Site) + "b[i] = a[i] * 3.0f;");
  double Divided = estimate(std::string(Site) + "b[i] = a[i] / 3.0f;");
  ASSERT_GT(Times, 0);
  EXPECT_DOUBLE_EQ(Divided - Times, 9);
}

TEST(InstructionEstimate, BranchCountsItsLargerSide) {
  double Plain = estimate(std::string(Site) + "b[i] = a[i];");
  double Branched =
      estimate(std::string(Site) + "if (i > 0) b[i] = a[i]; else b[i] = a[i] / a[i - 1];");
  // The condition's comparison, the branch, and the division side: a
  // subtraction, a load and the division.
  EXPECT_DOUBLE_EQ(Branched - Plain, 2 + 1 + 2 + 10);
}

TEST(InstructionEstimate, FollowsDeviceFunctions) {
  double Inline = estimate(std::string(Site) + "b[i] = 2.0f * a[i];");
  double Called = estimate(std::string(Site) + "b[i] = twice(a[i]);");
  EXPECT_DOUBLE_EQ(Called - Inline, 2); // the call's overhead
}

TEST(InstructionEstimate, UnknownWithLoopsOrOpaqueCalls) {
  EXPECT_EQ(estimate(std::string(Site) + "for (int k = 0; k < n; ++k) b[i] += a[k];"), -1);
  EXPECT_EQ(estimate(std::string(Site) + "b[i] = opaque(a[i]);"), -1);
}

// The headers define atomicAdd over builtins that cannot be followed; its
// known cost is used instead, scoped variants alike.
TEST(InstructionEstimate, AtomicsHaveAKnownCost) {
  double Stored = estimate(std::string(Site) + "if (i < n) b[0] = a[i];");
  double Added = estimate(std::string(Site) + "if (i < n) atomicAdd(&b[0], a[i]);");
  ASSERT_GT(Stored, 0);
  ASSERT_GT(Added, 0);
  EXPECT_DOUBLE_EQ(estimate(std::string(Site) + "if (i < n) atomicAdd_block(&b[0], a[i]);"), Added);
}
