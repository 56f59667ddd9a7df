#ifndef LAUNCHOPT_TRANSFORMS_COMMON_ATOMICSLOTS_H
#define LAUNCHOPT_TRANSFORMS_COMMON_ATOMICSLOTS_H

// The text that combines a child's atomic updates of one address
// (KernelCopy::Accumulations, runtime/include/launchopt/accumulate.cuh) in a
// copy that runs several of the child's threads in one thread: a serial
// copy (all of them), a coarsened block (one per original block). Each
// update goes into a slot that starts from the operation's identity; the
// slots are applied once, after the last thread the copy runs.

#include "Transforms/Common/KernelCopy.h"
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// How the copied body names its slots: as the pointer parameters of the
// function that holds it (SlotsArePointers), or as locals of the kernel it
// is written in (SlotsAreLocals).
enum SlotNaming { SlotsArePointers, SlotsAreLocals };

// ", <slot type> *__lo_acc0 = nullptr, ...": the parameters of a function
// that runs one thread (or block) of the child. None given, each update is
// applied at once.
std::string atomicSlotParameters(const KernelCopy &K);

// BodyEdits and the edits that send each combinable atomic to its slot.
std::vector<SourceEdit>
withAtomicSlots(const KernelCopy &K, const std::vector<SourceEdit> &BodyEdits, SlotNaming Naming);

// BodyEdits and the edits that apply each combinable atomic once per warp
// and address, for a copy whose lanes run threads of one child or of
// several (an aggregated grid, a child block run by a parent block).
std::vector<SourceEdit> withWarpAtomics(const KernelCopy &K,
                                        const std::vector<SourceEdit> &BodyEdits);

// Before the loop over the child's threads: the slots, each line after Indent.
std::string atomicSlotDeclarations(const KernelCopy &K, const std::string &Indent);

// ", &__lo_acc0, ...": the arguments that pass the slots to the function.
std::string atomicSlotArguments(const KernelCopy &K);

// After the loop: each slot applied with one atomic, or with one per warp
// where the warp's lanes share the address (Warp: a coarsened block, whose
// lanes run one child's block).
std::string atomicSlotFlushes(const KernelCopy &K, const std::string &Indent, bool Warp = false);

// What the report says of the combined updates: "atomicAdd(sum)", or none.
std::optional<std::string> combinedAtomics(const KernelCopy &K);

} // namespace launchopt

#endif
