#include "Transforms/Fusion/Model/NvccResources.h"
#include "gtest/gtest.h"

using namespace launchopt;

namespace {

// Captured from nvcc 13.0 `-arch=sm_90 --resource-usage -c` on two kernels,
// one in a namespace and one with a __shared__ array.
const char *PtxasVerbose = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_ZN2ns5scaleEPff' for 'sm_90'
ptxas info    : Function properties for _ZN2ns5scaleEPff
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 8 registers, used 0 barriers
ptxas info    : Compile time = 23.324 ms
ptxas info    : Compiling entry function '_Z5tiledPKfPf' for 'sm_90'
ptxas info    : Function properties for _Z5tiledPKfPf
    40 bytes stack frame, 16 bytes spill stores, 16 bytes spill loads
ptxas info    : Used 14 registers, used 1 barriers, 1032 bytes smem
ptxas info    : Compile time = 3.155 ms
)";

// The tabular form of older toolkits' --resource-usage.
const char *Tabular = R"(Resource usage:
 Common:
  GLOBAL:0
 Function _Z6flux_xPKfS0_Pfii:
  REG:12 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:380 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function _Z10divergencePKfS0_Pfii:
  REG:16 STACK:0 SHARED:2048 LOCAL:0 CONSTANT[0]:376 TEXTURE:0 SURFACE:0 SAMPLER:0
)";

TEST(FusionResources, ParsesPtxasVerboseLines) {
  std::map<std::string, KernelResources> R = parseNvccResourceUsage(PtxasVerbose);
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(R["scale"].Registers, 8u);
  EXPECT_EQ(R["scale"].SharedMemoryBytes, 0u);
  EXPECT_EQ(R["tiled"].Registers, 14u);
  EXPECT_EQ(R["tiled"].SharedMemoryBytes, 1032u);
  EXPECT_EQ(R["tiled"].SpillBytes, 16u);
}

TEST(FusionResources, ParsesTabularResourceUsage) {
  std::map<std::string, KernelResources> R = parseNvccResourceUsage(Tabular);
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(R["flux_x"].Registers, 12u);
  EXPECT_EQ(R["divergence"].Registers, 16u);
  EXPECT_EQ(R["divergence"].SharedMemoryBytes, 2048u);
}

TEST(FusionResources, FiguresReachTheProblemByKernelName) {
  FusionProblem P;
  for (const char *Name : {"tiled", "tiled#2", "absent"}) {
    OriginalKernel K;
    K.Name = Name;
    P.Kernels.push_back(K);
  }
  EXPECT_EQ(applyKernelResources(P, parseNvccResourceUsage(PtxasVerbose)), 2u);
  EXPECT_EQ(P.Kernels[0].Registers, 14u);
  EXPECT_EQ(P.Kernels[1].SharedMemoryBytes, 1032u);
  EXPECT_EQ(P.Kernels[2].Registers, 32u); // the model's default stays
}

} // namespace
