#ifndef LAUNCHOPT_TRANSFORMS_THRESHOLD_SERIALCHILDBUILDER_H
#define LAUNCHOPT_TRANSFORMS_THRESHOLD_SERIALCHILDBUILDER_H

#include "Transforms/Common/KernelCopy.h"
#include <string>
#include <vector>

namespace launchopt {

// The serial version of a child kernel (paper §III-B, Fig. 3 lines 09-15):
// a __device__ function that runs every thread of the child grid in turn.
// Each thread runs a copy of the kernel body in which the built-in index
// variables are shadowed by locals holding that thread's values, so the body
// (its macros and early returns included) is copied verbatim.

// Name of the serial function for a kernel name (generated::threshold::SerialPrefix).
std::string serialNameFor(llvm::StringRef KernelName);

// The serial function's declaration, for parents written before the kernel
// or in another file of the program. Exported: external linkage, for a
// kernel that other files launch (else static, as every generated function).
std::string serialPrototype(const KernelCopy &K, bool Exported = false);

// The per-thread function and the serial function, inserted right after the
// kernel. BodyEdits (main-file offsets) are applied to the copied body, so
// that launches inside the child that this pass rewrote are rewritten in the
// serial copy too; edits outside the body are ignored.
std::string serialDefinitions(const clang::ASTContext &Ctx, const KernelCopy &K,
                              const std::vector<SourceEdit> &BodyEdits, bool Exported = false);

} // namespace launchopt

#endif
