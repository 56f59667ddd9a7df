#include "Analysis/ThreadLoops.h"
#include "Frontend/CompilerFlags.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace launchopt;

namespace {

// Whether threadsMayLoop says so of kernel `k` in Code.
bool kernelLoops(const std::string &Code) {
  clang::tooling::CommandLineArguments Args =
      cudaParseAdjuster(defaultParseEnvironment())({"clang++"}, "test.cu");
  Args.erase(Args.begin());
  std::unique_ptr<clang::ASTUnit> Unit =
      clang::tooling::buildASTFromCodeWithArgs(Code, Args, "test.cu");
  EXPECT_TRUE(Unit);
  if (!Unit)
    return false;
  for (const clang::Decl *D : Unit->getASTContext().getTranslationUnitDecl()->decls())
    if (auto *F = llvm::dyn_cast<clang::FunctionDecl>(D); F && F->getName() == "k" && F->hasBody())
      return threadsMayLoop(*F);
  ADD_FAILURE() << "no kernel k";
  return false;
}

} // namespace

TEST(ThreadLoops, StraightLineKernelDoesNotLoop) {
  EXPECT_FALSE(kernelLoops("__global__ void k(int *p, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n) atomicAdd(&p[0], p[i]);\n}\n"));
}

TEST(ThreadLoops, DataDependentLoopsLoop) {
  EXPECT_TRUE(
      kernelLoops("__global__ void k(int *p, int n) { for (int i = 0; i < n; ++i) p[i] = 0; }"));
  EXPECT_TRUE(kernelLoops("__global__ void k(int *p) { int j = 0; while (p[j] >= 0) j = p[j]; }"));
  EXPECT_TRUE(kernelLoops("__global__ void k(int *p) { int j = 0; do ++j; while (p[j]); }"));
  EXPECT_TRUE(kernelLoops("__global__ void k(int *p) { again: if (*p) { --*p; goto again; } }"));
}

TEST(ThreadLoops, ShortConstantLoopDoesNotCount) {
  EXPECT_FALSE(kernelLoops("__global__ void k(int *p) { for (int k = 0; k < 4; ++k) p[k] = 0; }"));
  EXPECT_FALSE(kernelLoops("__global__ void k(int *p) { for (int k = 1; k <= 8; ++k) p[k] = 0; }"));
  EXPECT_TRUE(kernelLoops("__global__ void k(int *p) { for (int k = 0; k < 64; ++k) p[k] = 0; }"));
  // The bound is a constant, but the step is not ++.
  EXPECT_TRUE(
      kernelLoops("__global__ void k(int *p) { for (int k = 0; k < 4; k += 0) p[k] = 0; }"));
}

TEST(ThreadLoops, LoopInCalleeCounts) {
  EXPECT_TRUE(kernelLoops("__device__ int walk(const int *p, int j) { while (j >= 0) j = p[j]; "
                          "return j; }\n"
                          "__device__ int twice(const int *p, int j) { return walk(p, j) + 1; }\n"
                          "__global__ void k(int *p) { p[0] = twice(p, p[1]); }\n"));
  // A helper called twice is no recursion.
  EXPECT_FALSE(kernelLoops("__device__ int add(int a, int b) { return a + b; }\n"
                           "__global__ void k(int *p) { p[0] = add(add(p[1], p[2]), p[3]); }\n"));
}

TEST(ThreadLoops, CalleeWithoutBodyCounts) {
  EXPECT_TRUE(kernelLoops("__device__ int opaque(int);\n"
                          "__global__ void k(int *p) { p[0] = opaque(p[1]); }\n"));
}

TEST(ThreadLoops, RecursionCounts) {
  EXPECT_TRUE(kernelLoops("__device__ int down(int n) { return n > 0 ? down(n - 1) : 0; }\n"
                          "__global__ void k(int *p) { p[0] = down(p[1]); }\n"));
}

TEST(ThreadLoops, ChildLaunchesAreNotTheThreadsWork) {
  EXPECT_FALSE(kernelLoops("__global__ void leaf(int *p) { for (;;) if (p[0]) return; }\n"
                           "__global__ void k(int *p) { leaf<<<1, 1>>>(p); }\n"));
}
