#ifndef LAUNCHOPT_TRANSFORMS_COMMON_SERIALCHILDBUILDER_H
#define LAUNCHOPT_TRANSFORMS_COMMON_SERIALCHILDBUILDER_H

#include "Analysis/KernelFeatures.h"
#include "Transforms/Common/KernelCopy.h"
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// The serial version of a child kernel (paper §III-B, Fig. 3 lines 09-15):
// a __device__ function that runs every thread of the child grid in turn.
// Each thread runs a copy of the kernel body in which the built-in index
// variables are shadowed by locals holding that thread's values, so the body
// (its macros and early returns included) is copied verbatim.

//
// A child in a launch cycle (it launches itself, perhaps through others)
// would make its serial copy recursive without bound. Its serial and
// per-thread functions take the depth of serial copies they run in
// (generated::threshold::SerialDepth); a launch of such a child runs
// serially only below LAUNCHOPT_SERIAL_DEPTH (serialDepthDefinitions) and
// is launched beyond it, so the serial recursion is bounded.

// Why a child's threads cannot run one after another in one parent thread
// (paper §III-C); success when nothing stands in the way.
llvm::Error serialCopyBlocker(const KernelFeatures &F);

// Why a copy of Child, defined in an included header, cannot be written
// from the header's text after the #include: calls in that text cannot be
// sent to the shadow copies that see the copy's thread indices. Success for
// a child of the main file.
llvm::Error headerCopyBlocker(const clang::FunctionDecl &Child, const KernelFeatures &F);

// The prefixes of the two generated functions: thresholding's by default;
// launch removal (T4) writes its own, so that both passes can copy one child.
struct SerialCopyNames {
  std::string SerialPrefix;
  std::string ThreadPrefix;
};
SerialCopyNames thresholdSerialNames();

// How the two functions are written.
struct SerialCopyOptions {
  // The child is in a launch cycle: the functions take the serial depth.
  bool InCycle = false;
  // External linkage, for a kernel that other files of the program launch
  // (else static, as every generated function).
  bool Exported = false;
  // Whether the serial copy may pool the lanes of its warp (lanePooling).
  // Spawn's may not: its sites ask the device runtime for errors before
  // and after each launch, and on the H200 a warp whose other lanes did so
  // while some pooled never finished (bench/results/serial-atomics/spawn-hang.md).
  bool MayPool = true;
  SerialCopyNames Names = thresholdSerialNames();
};

// Name of the serial function for a kernel name (generated::threshold::SerialPrefix).
std::string serialNameFor(llvm::StringRef KernelName,
                          const SerialCopyNames &Names = thresholdSerialNames());

// The serial function's declaration, for parents written before the kernel
// or in another file of the program.
std::string serialPrototype(const KernelCopy &K, const SerialCopyOptions &Options = {});

// The per-thread function and the serial function, inserted right after the
// kernel. BodyEdits (main-file offsets) are applied to the copied body, so
// that launches inside the child that this pass rewrote are rewritten in the
// serial copy too; edits outside the body are ignored.
std::string serialDefinitions(const clang::ASTContext &Ctx, const KernelCopy &K,
                              const std::vector<SourceEdit> &BodyEdits,
                              const SerialCopyOptions &Options = {});

// Whether the serial copy first offers its child to the lanes of the warp
// that run theirs at the same time (runtime/include/launchopt/packing.cuh):
// for a child whose threads loop or are dear, what the report says of it
// (nothing for a child defined in another file: its own output says).
std::optional<std::string> lanePooling(const KernelCopy &K);

// Where the serial copy combines the child's atomic updates of one address
// (AtomicSlots): what the report says of it.
std::optional<std::string> serialAtomics(const KernelCopy &K);

// Includes the runtime headers that serialDefinitions' functions (and
// coarsened copies' atomic slots) call, when Edits hold any of them (a pass
// calls it once its edits are made).
void includeSerialRuntime(SourceEdits &Edits);

// The overridable LAUNCHOPT_SERIAL_DEPTH and the depth outside any serial
// copy, for a file where some child is in a launch cycle.
std::string serialDepthDefinitions();

} // namespace launchopt

#endif
