#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_FUSIONPROBLEM_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_FUSIONPROBLEM_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace launchopt {

// How one original kernel touches one data array (paper Table III: ThrLD(x),
// Flop(x); the halo radius is the widest stencil offset along any axis).
struct ArrayUse {
  unsigned Array = 0;
  bool Reads = false;
  bool Writes = false;
  // Thread load (Table II): how many threads of a block read one element,
  // i.e. the number of distinct stencil points of the access.
  unsigned ThreadLoad = 1;
  unsigned HaloRadius = 0;
  // Read at offsets loaded from an index array (`a[nb[i]]`): any element
  // may be read, so a producer in the same kernel would need a grid-wide
  // dependence (issue 21).
  bool Indirect = false;
  // Every thread stores the array at its own site, unconditionally: what a
  // later reader at any site of the grid loads, this kernel wrote.
  bool WritesEverySite = false;
};

// An original kernel with the metadata of paper Table III. Kernels are kept
// in host launch order; each is one call site (paper §II-C).
struct OriginalKernel {
  std::string Name;
  // Host copies and stream changes between launches split the launch
  // sequence into segments; kernels of different segments never fuse.
  unsigned Segment = 0;
  // Why this kernel starts a new segment (empty for the first kernel and
  // within a segment): the copy, synchronisation or stream change.
  std::string SegmentBoundary;
  // Kernels fuse only when launched with the same configuration (§II-C);
  // the written grid and block expressions identify it.
  std::string LaunchConfig;
  unsigned BlockDim[3] = {256, 1, 1}; // Thr = product
  // The launch names its block as a constant (BlockDim is then its shape,
  // else a guess): only such a block lays out shared-memory tiles.
  bool ConstantBlock = true;
  // Instructions a thread issues per site (InstructionEstimate.h); 0 when
  // unknown (a loop, a call that cannot be followed).
  double InstructionsPerSite = 0;
  unsigned long long Blocks = 1;      // B
  unsigned Registers = 32;            // R_T
  unsigned AddressRegisters = 4;      // R_Adr
  unsigned SharedMemoryBytes = 0;     // static shared memory per block
  // Its body synchronises its block (__syncthreads, as tiled kernels do
  // around their shared-memory tile): every thread of the block runs it
  // once at its own site, never again at a neighbour's (issue 21).
  bool Barrier = false;
  std::vector<ArrayUse> Uses;
  // Measured runtime P(K) in seconds, or 0 when no profile was given.
  double MeasuredSeconds = 0;

  unsigned threadsPerBlock() const { return BlockDim[0] * BlockDim[1] * BlockDim[2]; }
  double sites() const { return double(Blocks) * threadsPerBlock(); }
  const ArrayUse *use(unsigned Array) const;
};

struct DataArray {
  std::string Name;
  unsigned ElementBytes = 8;
  // Only the sequence's kernels see its contents: the host function
  // allocates it, frees it and passes it to those launches, nothing else.
  // A new kernel that produces and consumes it on chip need not store it.
  bool Scratch = false;
};

// The input of the search: kernels in launch order and the arrays they use.
struct FusionProblem {
  std::vector<DataArray> Arrays;
  std::vector<OriginalKernel> Kernels;
};

// Why Reader cannot fuse with Producer of Array that it reads through an
// index array.
std::string indirectReadReason(const FusionProblem &P, unsigned Reader, unsigned Producer,
                               unsigned Array);

llvm::json::Value toJson(const FusionProblem &P);
llvm::Expected<FusionProblem> problemFromJson(const llvm::json::Value &V);

} // namespace launchopt

#endif
