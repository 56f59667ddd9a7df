#include "Frontend/CompilerFlags.h"
#include <algorithm>
#include <gtest/gtest.h>

using namespace launchopt;

static bool has(const clang::tooling::CommandLineArguments &Args, const std::string &A) {
  return std::find(Args.begin(), Args.end(), A) != Args.end();
}

TEST(CompilerFlags, DropsNvccOnlyOptions) {
  ParseEnvironment Env{"/cuda", "/compat", "/resource"};
  auto Out = cudaParseAdjuster(Env)({"nvcc", "-arch=sm_90", "-rdc=true", "-O3", "-Xcompiler",
                                     "-fopenmp", "-DN=4", "-lcudadevrt", "-Iinc", "a.cu"},
                                    "a.cu");
  EXPECT_FALSE(has(Out, "-arch=sm_90"));
  EXPECT_FALSE(has(Out, "-rdc=true"));
  EXPECT_FALSE(has(Out, "-Xcompiler"));
  EXPECT_FALSE(has(Out, "-fopenmp"));
  EXPECT_FALSE(has(Out, "-lcudadevrt"));
  EXPECT_TRUE(has(Out, "-O3"));
  EXPECT_TRUE(has(Out, "-DN=4"));
  EXPECT_TRUE(has(Out, "-Iinc"));
  EXPECT_EQ(Out.back(), "a.cu");
}

TEST(CompilerFlags, AddsHostSideCudaParsingFlags) {
  ParseEnvironment Env{"/cuda", "/compat", "/resource"};
  auto Out = cudaParseAdjuster(Env)({"clang++", "a.cu"}, "a.cu");
  EXPECT_TRUE(has(Out, "--cuda-host-only"));
  EXPECT_TRUE(has(Out, "--cuda-path=/cuda"));
  EXPECT_TRUE(has(Out, "/compat"));
  EXPECT_TRUE(has(Out, "/cuda/include/cccl"));
  EXPECT_TRUE(has(Out, "-resource-dir=/resource"));
}
