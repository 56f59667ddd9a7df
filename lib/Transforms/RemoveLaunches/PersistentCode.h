#ifndef LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_PERSISTENTCODE_H
#define LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_PERSISTENTCODE_H

// The code of T1 (CB* -> PB*) and T2 (CK* -> PB*), paper §2.3-2.4: the
// parent kernel gets a persistent twin, launched cooperatively from the host
// over a grid the device holds at once; its blocks run the original parent
// blocks in turn, recording the child launches in a global queue, then take
// the recorded work dynamically, a child grid (T2) or a child block (T1) at
// a time (runtime/include/launchopt/persistent.cuh). The original parent
// stays, its launch removed by T4, for a device without cooperative launch.

#include "ChildNaming.h"
#include "GridGuard.h"
#include "Transforms/Common/KernelCopy.h"
#include "Transforms/Common/LaunchText.h"
#include "Transforms/Common/SerialChildBuilder.h"
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// What a block of the persistent grid takes at a time.
enum class PersistentUnits {
  ChildGrids,  // T2
  ChildBlocks, // T1
  // The megakernel: small children run by the launching thread; the
  // others' threads packed, or T1 or T2 as Fig. 7b says, chosen on the device.
  Choose,
};

// The record of one launch of Child, inserted right after the child (a
// template of the child's parameters for a template child).
std::string gridRecordDefinition(const KernelCopy &Child);

// Replaces the launch in the persistent twin's copy of the parent body: the
// thread records the launch, or runs it itself (SerialCallee) when the queue
// is full or, for the megakernel with InlineSmall, when the child is small.
// Without a SerialCallee the child's threads work together: the launch is
// recorded for a block of the grid to run each child block, or the grid
// stops when the queue is full.
// Tag: the child's index among the parent's children, where the parent
// launches several (its queue holds records of any of them).
std::string gridRecordingStatement(const LaunchText &L, const GridGuard &Guard, unsigned SiteId,
                                   const KernelCopy &Child, const ChildNaming &Naming,
                                   const KernelCopy &Parent, const std::string &SerialCallee,
                                   PersistentUnits Units, bool InlineSmall,
                                   std::optional<unsigned> Tag = std::nullopt);

// A child that launches itself: the copies the persistent grid runs, whose
// launches of the child are recorded in the parent's queue, and the one
// that runs a child thread.
struct RecursiveChildCopies {
  std::string Child;
  std::string Definitions;
  std::string ThreadCallee;
};

// A child kernel the persistent grid runs, as the parent's code names it,
// and the copy that runs one of its threads (T4's, written beside the
// child, or a recursive child's, written beside the parent).
struct PersistentChildCode {
  const KernelCopy *Child;
  ChildNaming Naming;
  std::string ThreadCallee; // qualified as the parent names it; template arguments follow
  bool WholeBlocks = false;  // its threads work together: a block of the grid runs its blocks
};

// The names of those copies for one parent.
SerialCopyNames recursiveChildNames(const std::string &Parent);

// The parent's queue, the function that runs one original parent block (the
// parent's body with BodyEdits applied) and the persistent kernel, inserted
// right after the parent. Several children share the queue, each record
// tagged with its child's index in Children. With Recursive copies, they
// follow the queue and the recorded work runs in rounds until none is
// recorded. With WholeBlocks, a block of the grid runs a child block as one
// where the child's threads work together. A template parent's are
// templates of its parameters.
std::string persistentDefinitions(const clang::ASTContext &Ctx, const KernelCopy &Parent,
                                  const std::vector<PersistentChildCode> &Children,
                                  const std::vector<SourceEdit> &BodyEdits, PersistentUnits Units,
                                  const std::vector<RecursiveChildCopies> &Recursive,
                                  bool WholeBlocks);

// When a host-side launch of the parent launches the persistent grid.
enum class PersistentWhen {
  Always, // T1, T2
  // Only when the device holds more blocks than the original grid has
  // (Fig. 7a), else the original parent: the megakernel of uniform children.
  MoreResidentThanOriginal,
  // Always, over at least LAUNCHOPT_PERSISTENT_MIN_BLOCKS_PER_SM blocks per
  // SM: the megakernel of children of data-dependent sizes, whose recorded
  // threads a small original grid would leave to few blocks.
  AlwaysSpread,
};

// What a host-side launch of the parent names, as it names the parent
// (qualified, with every template argument written out): the persistent
// kernel, the parent itself and its queue.
struct PersistentHostNames {
  std::string Persistent, Original, Queue;
};
PersistentHostNames persistentHostNames(const clang::ASTContext &Ctx, const LaunchSite &Host);

// Replaces a host-side launch of the parent; RecursiveChild raises the
// device threads' stack first (runtime: LAUNCHOPT_PERSISTENT_STACK), and
// WholeBlocks the device heap (LAUNCHOPT_PERSISTENT_HEAP).
std::string persistentHostLaunch(const LaunchText &L, const PersistentHostNames &Names,
                                 const KernelCopy &Parent, PersistentWhen When, bool RecursiveChild,
                                 bool WholeBlocks);

// The directives T1/T2 need, once at the top of the file.
std::string persistentPreamble();

} // namespace launchopt

#endif
