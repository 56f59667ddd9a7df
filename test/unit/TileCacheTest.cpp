#include "Analysis/ParameterAccess.h"
#include "Analysis/TileCache.h"
#include "Frontend/CompilerFlags.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace launchopt;

namespace {

std::unique_ptr<clang::ASTUnit> parse(const std::string &Params, const std::string &Body) {
  std::string Code = "#define B 16\n__device__ float g(float x) { return x; }\n__global__ void k(" +
                     Params + ") {\n" + Body + "\n}\n";
  clang::tooling::CommandLineArguments Args =
      cudaParseAdjuster(defaultParseEnvironment())({"clang++"}, "test.cu");
  Args.erase(Args.begin());
  return clang::tooling::buildASTFromCodeWithArgs(Code, Args, "test.cu");
}

const clang::FunctionDecl *kernel(clang::ASTUnit &Unit) {
  for (const clang::Decl *D : Unit.getASTContext().getTranslationUnitDecl()->decls())
    if (auto *F = llvm::dyn_cast<clang::FunctionDecl>(D); F && F->getName() == "k")
      return F;
  return nullptr;
}

// The array reads that the tile reads of `__global__ void k(<Params>) {
// <Body> }` stand for, in source order and joined by "; ", or "none" when
// its tiles are not caches.
std::string cachedReads(const std::string &Params, const std::string &Body) {
  std::unique_ptr<clang::ASTUnit> Unit = parse(Params, Body);
  EXPECT_TRUE(Unit);
  if (!Unit)
    return "<no AST>";
  std::optional<TileCaches> Caches = findTileCaches(*kernel(*Unit));
  if (!Caches)
    return "none";
  std::string Out;
  for (const TileCache &C : Caches->Caches)
    for (const TileCacheRead &R : C.Reads)
      Out += (Out.empty() ? "" : "; ") + R.GlobalRead;
  return Out;
}

const char *const TwoD = "const float *in, float *out, int cols";
const char *const Prologue =
    "int tx = threadIdx.x, ty = threadIdx.y;\n"
    "int index = cols * B * blockIdx.y + B * blockIdx.x + cols * ty + tx;\n"
    "__shared__ float tile[B][B];\n";

} // namespace

TEST(TileCache, RowMajorTileReadsNeighbours) {
  EXPECT_EQ(cachedReads(TwoD, std::string(Prologue) +
                                  "tile[ty][tx] = in[index];\n__syncthreads();\n"
                                  "float c = tile[ty][tx];\n"
                                  "float n = ty > 0 ? tile[ty - 1][tx] : c;\n"
                                  "float e = tx < B - 1 ? tile[ty][tx + 1] : in[index + 1];\n"
                                  "out[index] = c + n + e;"),
            "in[index]; in[index - cols]; in[index + 1]");
}

TEST(TileCache, OneDimensionalTileWithBuiltins) {
  EXPECT_EQ(cachedReads("const float *in, float *out",
                        "__shared__ float t[128];\n"
                        "t[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];\n"
                        "__syncthreads();\n"
                        "out[blockIdx.x * blockDim.x + threadIdx.x] = t[0] + "
                        "t[threadIdx.x > 0 ? threadIdx.x - 1 : 0];"),
            "none");
  EXPECT_EQ(cachedReads("const float *in, float *out",
                        "__shared__ float t[128];\n"
                        "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "t[threadIdx.x] = in[i];\n"
                        "__syncthreads();\n"
                        "out[i] = t[0] + t[threadIdx.x];"),
            "in[i - (int)threadIdx.x]; in[i]");
}

TEST(TileCache, RefusedShapes) {
  // The cached array is written.
  EXPECT_EQ(cachedReads("float *in, int cols", std::string(Prologue) +
                                                   "tile[ty][tx] = in[index];\n__syncthreads();\n"
                                                   "in[index] = tile[ty][tx] + 1;"),
            "none");
  // A second barrier: the tile is written again.
  EXPECT_EQ(cachedReads(TwoD, std::string(Prologue) +
                                  "tile[ty][tx] = in[index];\n__syncthreads();\n"
                                  "float c = tile[ty][tx];\n__syncthreads();\n"
                                  "tile[ty][tx] = c * 2;\n__syncthreads();\n"
                                  "out[index] = tile[ty][tx];"),
            "none");
  // The store is conditional.
  EXPECT_EQ(cachedReads(TwoD, std::string(Prologue) +
                                  "if (tx < 8) tile[ty][tx] = in[index];\n__syncthreads();\n"
                                  "out[index] = tile[ty][tx];"),
            "none");
  // The store is not the thread's own element.
  EXPECT_EQ(cachedReads(TwoD, std::string(Prologue) +
                                  "tile[tx][ty] = in[index];\n__syncthreads();\n"
                                  "out[index] = tile[ty][tx];"),
            "none");
  // A row of the tile escapes.
  EXPECT_EQ(cachedReads(TwoD, std::string(Prologue) +
                                  "tile[ty][tx] = in[index];\n__syncthreads();\n"
                                  "float *row = tile[ty];\nout[index] = row[tx];"),
            "none");
  // The stored index uses a local that changes after the store.
  EXPECT_EQ(cachedReads(TwoD, "int tx = threadIdx.x, ty = threadIdx.y;\n"
                              "int index = cols * ty + tx;\n__shared__ float tile[B][B];\n"
                              "tile[ty][tx] = in[index];\n__syncthreads();\n"
                              "index += 1;\nout[index] = tile[ty][tx];"),
            "none");
  // An early return before the barrier.
  EXPECT_EQ(cachedReads(TwoD, std::string(Prologue) +
                                  "if (cols == 0) return;\n"
                                  "tile[ty][tx] = in[index];\n__syncthreads();\n"
                                  "out[index] = tile[ty][tx];"),
            "none");
}

TEST(TileCache, ParameterAccessReadsThroughTheTile) {
  std::unique_ptr<clang::ASTUnit> Unit =
      parse(TwoD, std::string(Prologue) + "tile[ty][tx] = in[index];\n__syncthreads();\n"
                                          "out[index] = tile[ty][tx] + tile[ty + 1][tx];");
  ASSERT_TRUE(Unit);
  KernelAccess A = analyzeParameterAccess(*kernel(*Unit));
  ASSERT_EQ(A.Parameters.size(), 2u);
  EXPECT_EQ(A.Parameters[0].Name, "in");
  EXPECT_EQ(A.Parameters[0].HaloRadius, 1u);
  EXPECT_EQ(A.Parameters[0].ReadOffsets, (std::vector<std::string>{"+cols", "0"}));
  EXPECT_FALSE(A.Parameters[0].Indirect);
}
