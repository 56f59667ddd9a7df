#include "Analysis/LaunchSites.h"
#include "Analysis/Uniformity.h"
#include "Frontend/CompilerFlags.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace launchopt;

namespace {

// Parses a parent whose only launch passes Argument, and asks whether it is
// uniform across Scope.
bool uniform(const std::string &Prelude, const std::string &Argument, UniformityScope Scope) {
  std::string Code = "__constant__ int table[4];\n"
                     "const int limit = 7;\n"
                     "struct Node { int begin, end; };\n"
                     "struct Quad { Node child[4]; const int *ids; };\n"
                     "__device__ int counter;\n"
                     "__device__ int f(int);\n"
                     "__global__ void child(long v) {}\n"
                     "__global__ void parent(int n, const int *p, int written, Quad quad) {\n"
                     "  written = 3;\n" +
                     Prelude + "\n  child<<<1, 32>>>(" + Argument + ");\n}\n";
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
  if (A.Sites.size() != 1 || A.Sites[0].Arguments.size() != 1)
    return false;
  return isUniform(Ctx, *A.Sites[0].Arguments[0], *A.Sites[0].Parent, Scope);
}

} // namespace

TEST(Uniformity, ConstantsAndUnwrittenParameters) {
  EXPECT_TRUE(uniform("", "42", UniformityScope::Grid));
  EXPECT_TRUE(uniform("", "n * 2 + limit", UniformityScope::Grid));
  EXPECT_TRUE(uniform("", "(long)p", UniformityScope::Grid));
  EXPECT_FALSE(uniform("", "written", UniformityScope::Warp));
}

TEST(Uniformity, BuiltinsDependOnTheScope) {
  EXPECT_TRUE(uniform("", "blockDim.x * gridDim.x", UniformityScope::Grid));
  EXPECT_TRUE(uniform("", "blockIdx.x", UniformityScope::Block));
  EXPECT_FALSE(uniform("", "blockIdx.x", UniformityScope::Grid));
  EXPECT_FALSE(uniform("", "threadIdx.x", UniformityScope::Warp));
}

TEST(Uniformity, LocalsFollowTheirInitializer) {
  EXPECT_TRUE(uniform("int base = blockIdx.x * blockDim.x;", "base", UniformityScope::Block));
  EXPECT_FALSE(
      uniform("int i = blockIdx.x * blockDim.x + threadIdx.x;", "i", UniformityScope::Block));
  EXPECT_FALSE(uniform("int m = n; m += 1;", "m", UniformityScope::Grid));
}

TEST(Uniformity, MemoryReadsAndCallsAreNotUniform) {
  EXPECT_FALSE(uniform("", "p[0]", UniformityScope::Grid));
  EXPECT_FALSE(uniform("", "*p", UniformityScope::Grid));
  EXPECT_FALSE(uniform("", "counter", UniformityScope::Grid));
  EXPECT_FALSE(uniform("", "f(n)", UniformityScope::Grid));
  EXPECT_TRUE(uniform("", "n > 0 ? n : limit", UniformityScope::Grid));
}

TEST(Uniformity, MembersAndElementsOfByValueStructs) {
  // A by-value parameter's members and its arrays' elements are no memory
  // read through a pointer: uniform where the index is.
  EXPECT_TRUE(uniform("", "quad.child[2].end", UniformityScope::Grid));
  EXPECT_TRUE(uniform("", "quad.child[blockIdx.x].begin", UniformityScope::Block));
  EXPECT_FALSE(uniform("", "quad.child[blockIdx.x].begin", UniformityScope::Grid));
  EXPECT_FALSE(uniform("", "quad.child[threadIdx.x].begin", UniformityScope::Warp));
  // A struct local copied from one is too, unless written.
  EXPECT_TRUE(uniform("const Node node = quad.child[blockIdx.x];", "node.end - node.begin",
                      UniformityScope::Block));
  EXPECT_FALSE(uniform("Node node = quad.child[blockIdx.x]; node.end = threadIdx.x;", "node.end",
                       UniformityScope::Block));
  // Through the member pointer it is a memory read.
  EXPECT_FALSE(uniform("", "quad.ids[0]", UniformityScope::Grid));
}
