#ifndef LAUNCHOPT_TRANSFORMS_SPAWN_SPAWNEDKERNEL_H
#define LAUNCHOPT_TRANSFORMS_SPAWN_SPAWNEDKERNEL_H

// What the spawn pass writes besides the launch sites: the spawned copy of a
// child (generated::spawn::SpawnedPrefix), which runs the child's threads
// through the serial copy's per-thread function and reports each finished
// block to the controller, and the file's table of sites for the counters.

#include "Analysis/SourceText.h"
#include "Transforms/Common/KernelCopy.h"
#include "Transforms/Common/SerialChildBuilder.h"
#include <string>
#include <utility>
#include <vector>

namespace launchopt {

// The serial copy's names under the spawn pass.
SerialCopyNames spawnSerialNames();

// The spawned kernel's declaration, for a parent written before the child.
// Exported: external linkage, for a child that other files of the program
// launch (its copies are in its own file's output).
std::string spawnedPrototype(const KernelCopy &K, bool Exported = false);

// The spawned kernel, written after the child's serial copy (it calls the
// per-thread function). InCycle: the per-thread function takes the serial
// depth, which is 0 in a launched grid.
std::string spawnedDefinition(const KernelCopy &K, bool InCycle, bool Exported = false);

// The spawned kernel of a child that cannot run in the parent thread: the
// child's body (with BodyEdits, main-file offsets, applied) under a guard
// by which each thread reports its end.
std::string blockSpawnedDefinition(const clang::ASTContext &Ctx, const KernelCopy &K,
                                   const std::vector<SourceEdit> &BodyEdits);

// The file's launch sites (id, position) for the counters, compiled only
// with -DLAUNCHOPT_COUNTERS; appended to the file.
std::string counterTable(const std::vector<std::pair<unsigned, PresumedPosition>> &Sites);

} // namespace launchopt

#endif
