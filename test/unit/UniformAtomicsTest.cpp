#include "Analysis/UniformAtomics.h"
#include "Frontend/CompilerFlags.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace launchopt;

namespace {

// "Op/Scope" of each combinable atomic of `k`, whose parameters are
// `float *y, int *count, const float *x, int row, int n` and body Body;
// globals `total` (an int) and `totals` (an array of ints) are declared.
std::vector<std::string> combinable(const std::string &Body) {
  std::string Code = "__device__ int total;\n"
                     "__device__ int totals[8];\n"
                     "__device__ void fence() { __threadfence(); }\n"
                     "__device__ int peek() { return total; }\n"
                     "__global__ void k(float *y, int *count, const float *x, int row, int n) {\n"
                     "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n" +
                     Body + "\n}\n";
  clang::tooling::CommandLineArguments Args =
      cudaParseAdjuster(defaultParseEnvironment())({"clang++"}, "test.cu");
  Args.erase(Args.begin());
  std::unique_ptr<clang::ASTUnit> Unit = clang::tooling::buildASTFromCodeWithArgs(Code, Args);
  EXPECT_TRUE(Unit);
  std::vector<std::string> Found;
  if (!Unit)
    return Found;
  for (const clang::Decl *D : Unit->getASTContext().getTranslationUnitDecl()->decls())
    if (auto *F = llvm::dyn_cast<clang::FunctionDecl>(D); F && F->getName() == "k")
      for (const UniformAtomic &A : uniformAtomics(*F))
        Found.push_back(A.Op + "/" + A.Scope);
  return Found;
}

using Kinds = std::vector<std::string>;

} // namespace

TEST(UniformAtomics, UpdatesOfOneAddressPerGridCombine) {
  EXPECT_EQ(combinable("if (i < n) atomicAdd(y, x[i]);"), Kinds{"Add/Device"});
  EXPECT_EQ(combinable("if (i < n) atomicAdd(&y[row], x[i]);"), Kinds{"Add/Device"});
  EXPECT_EQ(combinable("if (i < n) atomicMax_block(count + row * 2, (int)x[i]);"),
            Kinds{"Max/Block"});
  EXPECT_EQ(combinable("atomicAdd(&total, 1); atomicOr(&totals[3], i);"),
            (Kinds{"Add/Device", "Or/Device"}));
}

TEST(UniformAtomics, AddressesThatDifferPerThreadDoNot) {
  EXPECT_TRUE(combinable("atomicAdd(&y[i], x[i]);").empty());
  EXPECT_TRUE(combinable("atomicAdd(&y[(int)x[0]], 1.0f);").empty()); // reads memory
  EXPECT_TRUE(combinable("row += 1; atomicAdd(&y[row], x[i]);").empty()); // written
}

TEST(UniformAtomics, AnOldValueUsedOrAnotherUseOfTheAddressStopsThem) {
  EXPECT_TRUE(combinable("int old = atomicAdd(count, 1); y[i] = old;").empty());
  EXPECT_TRUE(combinable("atomicAdd(y, x[i]); if (i == 0) y[1] = 0;").empty());
  EXPECT_TRUE(combinable("atomicAdd(&total, 1); count[i] = peek();").empty());
  // A sum and a maximum of one variable do not commute.
  EXPECT_TRUE(combinable("atomicAdd(count, 1); atomicMax(count, i);").empty());
}

TEST(UniformAtomics, OrderingOrOpaqueCodeStopsThem) {
  EXPECT_TRUE(combinable("atomicAdd(y, x[i]); __threadfence();").empty());
  EXPECT_TRUE(combinable("atomicAdd(y, x[i]); fence();").empty());
  EXPECT_TRUE(combinable("atomicAdd(y, x[i]); asm volatile(\"\");").empty());
}

TEST(UniformAtomics, OnlyTypesTheOperationCombines) {
  EXPECT_TRUE(combinable("atomicExch(count, i);").empty());
  EXPECT_TRUE(combinable("atomicInc((unsigned *)count, 4u);").empty());
}

TEST(UniformAtomics, AnIndexMayBeReadElsewhere) {
  EXPECT_EQ(combinable("if (i < n) atomicMax(&count[row], row ^ i);"), Kinds{"Max/Device"});
}

TEST(UniformAtomics, EveryOperationAndScope) {
  EXPECT_EQ(combinable("atomicSub(count, 1); atomicSub_system(&total, 1);"),
            (Kinds{"Sub/Device", "Sub/System"}));
  EXPECT_EQ(
      combinable("atomicAnd(count, i); atomicXor_block(&totals[2], i); atomicMin(&total, i);"),
      (Kinds{"And/Device", "Xor/Block", "Min/Device"}));
  // One variable's atomics must agree, whatever their offsets.
  EXPECT_TRUE(combinable("atomicAnd(count, i); atomicXor(count + 1, i);").empty());
}
