#include "SyntheticPrograms.h"

#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <random>
#include <set>

namespace launchopt {

llvm::Expected<SyntheticProgramSpec> parseSyntheticProgramSpec(llvm::StringRef Text) {
  SyntheticProgramSpec Spec;
  llvm::SmallVector<llvm::StringRef> Items;
  Text.split(Items, ',', -1, false);
  for (llvm::StringRef Item : Items) {
    auto [Key, Value] = Item.split('=');
    unsigned long long N = 0;
    if (Value.getAsInteger(10, N))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "'" + Item + "' is not key=number");
    if (Key == "kernels")
      Spec.Kernels = N;
    else if (Key == "arrays")
      Spec.Arrays = N;
    else if (Key == "copies")
      Spec.DataCopies = N;
    else if (Key == "sharing")
      Spec.SharingSetSize = N;
    else if (Key == "load")
      Spec.ThreadLoad = N;
    else if (Key == "kinship")
      Spec.Kinship = N;
    else if (Key == "seed")
      Spec.Seed = N;
    else
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "unknown attribute '" + Key + "'");
  }
  return Spec;
}

FusionProblem generateSyntheticProgram(const SyntheticProgramSpec &Spec) {
  std::mt19937_64 Random(Spec.Seed);
  auto Uniform = [&](unsigned Lo, unsigned Hi) {
    return std::uniform_int_distribution<unsigned>(Lo, std::max(Lo, Hi))(Random);
  };
  auto Chance = [&](double P) { return std::uniform_real_distribution<>(0, 1)(Random) < P; };

  FusionProblem P;
  unsigned N = std::max(1u, Spec.Kernels);
  std::vector<unsigned> Segment(N, 0);
  std::set<unsigned> Cuts;
  while (N > 1 && Cuts.size() < std::min(Spec.DataCopies, N - 1))
    Cuts.insert(Uniform(1, N - 1));
  for (unsigned K = 0, S = 0; K < N; ++K) {
    S += Cuts.count(K);
    Segment[K] = S;
  }
  for (unsigned K = 0; K < N; ++K) {
    OriginalKernel Kernel;
    Kernel.Name = "k" + std::to_string(K);
    Kernel.Segment = Segment[K];
    Kernel.LaunchConfig = "grid, block";
    Kernel.BlockDim[0] = 32;
    Kernel.BlockDim[1] = 8;
    Kernel.Blocks = 4096; // a 1024 x 1024 grid of sites
    Kernel.Registers = Uniform(24, 48);
    Kernel.AddressRegisters = 4;
    P.Kernels.push_back(std::move(Kernel));
  }

  unsigned SetSize = std::max(2u, std::min(Spec.SharingSetSize, N));
  unsigned Window = std::min(N, std::max(SetSize, Spec.Kinship * SetSize));
  for (unsigned A = 0; A < Spec.Arrays; ++A) {
    P.Arrays.push_back({"a" + std::to_string(A), 8});
    unsigned Start = Uniform(0, N - Window);
    std::vector<unsigned> Members;
    for (unsigned K = Start; K < Start + Window; ++K)
      Members.push_back(K);
    std::shuffle(Members.begin(), Members.end(), Random);
    Members.resize(
        std::min<size_t>(Members.size(), Uniform(std::max(2u, SetSize - 1), SetSize + 1)));
    std::sort(Members.begin(), Members.end());
    bool Input = Chance(0.4);
    for (unsigned I = 0; I < Members.size(); ++I) {
      ArrayUse U;
      U.Array = A;
      bool First = I == 0;
      if (Input) {
        U.Reads = true;
      } else if (First) {
        U.Writes = true;
      } else {
        double Roll = std::uniform_real_distribution<>(0, 1)(Random);
        U.Reads = Roll < 0.8;
        U.Writes = Roll >= 0.65;
      }
      if (U.Reads && !U.Writes) {
        unsigned Spread = std::max(1u, Spec.ThreadLoad / 2);
        U.ThreadLoad = Uniform(std::max(1u, Spec.ThreadLoad - Spread), Spec.ThreadLoad + Spread);
        U.HaloRadius = U.ThreadLoad <= 1 ? 0 : U.ThreadLoad <= 5 ? 1 : 2;
      }
      P.Kernels[Members[I]].Uses.push_back(U);
    }
  }
  // Every kernel produces something: one without a write updates the last
  // array it touches (a kernel touching none reads and updates one).
  for (unsigned K = 0; K < N; ++K) {
    OriginalKernel &Kernel = P.Kernels[K];
    if (Kernel.Uses.empty())
      Kernel.Uses.push_back({Uniform(0, P.Arrays.size() - 1), true, false, 1, 0});
    bool Writes = std::any_of(Kernel.Uses.begin(), Kernel.Uses.end(),
                              [](const ArrayUse &U) { return U.Writes; });
    if (!Writes)
      Kernel.Uses.back().Writes = true;
  }
  return P;
}

} // namespace launchopt
