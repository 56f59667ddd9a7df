#include "DeadStores.h"

#include <algorithm>

namespace launchopt {

bool storesDroppable(const FusionProblem &P, llvm::ArrayRef<unsigned> Members, unsigned Array) {
  if (Array >= P.Arrays.size() || !P.Arrays[Array].Scratch || Members.size() < 2)
    return false;
  bool Produced = false;
  for (unsigned K = 0; K < P.Kernels.size(); ++K) {
    // A kernel may pass one allocation as several parameters.
    bool Reads = false, Writes = false, EverySite = false;
    for (const ArrayUse &U : P.Kernels[K].Uses)
      if (U.Array == Array) {
        Reads |= U.Reads;
        Writes |= U.Writes;
        EverySite |= U.WritesEverySite;
      }
    bool Member = std::find(Members.begin(), Members.end(), K) != Members.end();
    if (!Member || !Produced) {
      if (Reads)
        return false;
      Produced |= Member && Writes && EverySite;
    }
  }
  return Produced;
}

} // namespace launchopt
