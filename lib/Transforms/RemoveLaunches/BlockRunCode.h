#ifndef LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_BLOCKRUNCODE_H
#define LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_BLOCKRUNCODE_H

// The code of T3 (CKi -> PBi, paper §2.5): the parent's threads record their
// launches in a list of the block; the parent's body runs as a lambda, so
// that every thread, whatever branch, loop or return it took, then reaches
// the end of the kernel, where the whole block runs the recorded child
// blocks (runtime/include/launchopt/removal.cuh).

#include "ChildNaming.h"
#include "GridGuard.h"
#include "Transforms/Common/KernelCopy.h"
#include "Transforms/Common/LaunchText.h"
#include <string>
#include <vector>

namespace launchopt {

// A child whose launches some parent block runs.
struct BlockRunChild {
  KernelCopy Copy;
  bool Synchronizes = false; // its body calls __syncthreads
};

// The record of one launch and the function that runs one child thread in a
// parent thread, inserted right after the child. BodyEdits are applied to
// the copied body.
std::string blockRunDefinitions(const clang::ASTContext &Ctx, const BlockRunChild &Child,
                                const std::vector<SourceEdit> &BodyEdits);

// A parent's list of a child's launches.
struct BlockRunList {
  const BlockRunChild *Child = nullptr;
  ChildNaming Naming;
};

// Replaces the launch statement: the thread records the launch. With a
// SerialCallee (the child's threads are independent), a launch that finds
// the block's slots full is run by the launching thread at once instead.
std::string recordingStatement(const LaunchText &L, const GridGuard &Guard, unsigned SiteId,
                               const KernelCopy &Child, const ChildNaming &Naming,
                               const std::string &SerialCallee);

// Inserted after the parent body's '{' and before its '}', for the children
// it launches, in the order their lists are run.
std::string parentOpening(const std::vector<BlockRunList> &Children);
std::string parentClosing(const std::vector<BlockRunList> &Children);

// The directive and macro the T3 code needs, once at the top of the file.
std::string blockRunPreamble(unsigned DefaultSlots);

} // namespace launchopt

#endif
