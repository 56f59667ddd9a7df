#include "Analysis/PointerFootprint.h"
#include "Frontend/CompilerFlags.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace launchopt;

namespace {

// What the __device__ function `f` of Code does through its first parameter.
Footprint footprintOfF(const std::string &Code) {
  clang::tooling::CommandLineArguments Args =
      cudaParseAdjuster(defaultParseEnvironment())({"clang++"}, "test.cu");
  Args.erase(Args.begin());
  std::unique_ptr<clang::ASTUnit> Unit =
      clang::tooling::buildASTFromCodeWithArgs(Code, Args, "test.cu");
  EXPECT_TRUE(Unit);
  if (!Unit)
    return {};
  for (const clang::Decl *D : Unit->getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D);
        F && F->getName() == "f" && F->hasBody())
      return FootprintAnalysis().of(*F, 0);
  ADD_FAILURE() << "no definition of f";
  return {};
}

} // namespace

TEST(PointerFootprint, RangeOfALoop) {
  Footprint P = footprintOfF(
      "__device__ void f(int *a, int lo, int hi) { for (int i = lo; i < hi; ++i) a[i] = 0; }");
  ASSERT_TRUE(P.Known);
  EXPECT_TRUE(P.Writes);
  EXPECT_TRUE(P.PlainAccess);
  ASSERT_TRUE(P.Within);
  EXPECT_EQ(P.Within->Text, "[lo, hi)");
}

TEST(PointerFootprint, LoadsOnly) {
  Footprint P = footprintOfF("__device__ int f(int *a, int n) {\n"
                             "  int s = 0;\n"
                             "  for (int i = 0; i < n; ++i) s += a[i] * 2 + (long)a[i];\n"
                             "  return s;\n"
                             "}");
  ASSERT_TRUE(P.Known);
  EXPECT_FALSE(P.Writes);
  ASSERT_TRUE(P.Within);
  EXPECT_EQ(P.Within->Text, "[0, n)");
}

// An element bound to a reference or a member of it may be written.
TEST(PointerFootprint, ReferencesAndMembersWrite) {
  EXPECT_TRUE(footprintOfF("__device__ void bump(int &x) { ++x; }\n"
                           "__device__ void f(int *a) { bump(a[0]); }")
                  .Writes);
  EXPECT_TRUE(footprintOfF("struct S { int x; };\n"
                           "__device__ void f(S *a) { a[0].x = 1; }")
                  .Writes);
}

TEST(PointerFootprint, AtomicsWithUnusedValues) {
  Footprint P = footprintOfF("__device__ void f(int *a, int n, int v) {\n"
                             "  if (v < n) atomicAdd(&a[v], 1);\n"
                             "  atomicSub(a, 2);\n"
                             "}");
  ASSERT_TRUE(P.Known);
  EXPECT_TRUE(P.Writes);
  EXPECT_FALSE(P.PlainAccess);
  EXPECT_EQ(P.Atomics, std::set<std::string>{"add"});
}

// The value an atomic returns depends on the order of the updates; a float
// sum rounds differently in another order.
TEST(PointerFootprint, AtomicsThatDoNotCommute) {
  EXPECT_TRUE(footprintOfF("__device__ int f(int *a) { return atomicAdd(a, 1); }").PlainAccess);
  EXPECT_TRUE(footprintOfF("__device__ void f(int *a) { int old = atomicAdd(a, 1); }").PlainAccess);
  EXPECT_TRUE(footprintOfF("__device__ void f(float *a) { atomicAdd(a, 1.0f); }").PlainAccess);
}

TEST(PointerFootprint, CopiesAreNotFollowed) {
  Footprint P = footprintOfF("__device__ void f(int *a) { int *b = a; b[0] = 1; }");
  EXPECT_FALSE(P.Known);
  EXPECT_NE(P.Unproved.find("in 'f' at line 1"), std::string::npos) << P.Unproved;
}
