#ifndef LAUNCHOPT_TRANSFORMS_THRESHOLD_SERIALCHILDBUILDER_H
#define LAUNCHOPT_TRANSFORMS_THRESHOLD_SERIALCHILDBUILDER_H

#include "Analysis/SourceText.h"
#include "Rewrite/SourceEdits.h"
#include "clang/AST/Decl.h"
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// The serial version of a child kernel (paper §III-B, Fig. 3 lines 09-15):
// a __device__ function that runs every thread of the child grid in turn.
// Each thread runs a copy of the kernel body in which the built-in index
// variables are shadowed by locals holding that thread's values, so the body
// (its macros and early returns included) is copied verbatim.
struct SerialChild {
  std::string Definitions; // inserted right after the kernel
  unsigned InsertOffset = 0;
  std::string Prototype;   // for parents written before the kernel
  std::string SerialName;  // __lo_serial_<kernel>
};

// Why a kernel cannot get a serial copy, or the copy.
struct SerialChildOrReason {
  std::optional<SerialChild> Serial;
  std::string Reason;
};

// BodyEdits (main-file offsets) are applied to the copied body, so that
// launches inside the child that this pass rewrote are rewritten in the
// serial copy too; edits outside the body are ignored.
SerialChildOrReason buildSerialChild(const clang::ASTContext &Ctx,
                                     const clang::FunctionDecl &Kernel,
                                     const std::vector<SourceEdit> &BodyEdits = {});

// Name of the serial function for a kernel name.
std::string serialNameFor(llvm::StringRef KernelName);

} // namespace launchopt

#endif
