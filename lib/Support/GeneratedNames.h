#ifndef LAUNCHOPT_SUPPORT_GENERATEDNAMES_H
#define LAUNCHOPT_SUPPORT_GENERATEDNAMES_H

// Every identifier launchopt writes into a user's program starts with the
// reserved prefix below, so that it cannot collide with a user's name. Each
// generated name or name prefix is spelled here once.
//
// Two kinds of names, two spellings:
// - A name that code in more than one place must agree on is a constant
//   below: a prefix of generated functions and types (`__lo_serial_<child>`),
//   whose definition, calls and the later passes that recognise it are
//   written apart; a parameter or variable that one function of launchopt
//   declares and another uses; a name the analysis recognises in an earlier
//   pass's output. Renaming one is one edit here.
// - A helper variable or parameter that lives inside one generated function
//   whose templates sit together in one place (a loop counter, a per-launch
//   temporary, a parameter that only the function's body reads) is written
//   in those templates as `@name`, and code() puts the prefix in. A
//   constant for each would turn a template like the serial loops into a
//   chain of concatenations nobody can read; renaming the prefix is still
//   one edit, and renaming such a name touches those templates only.
//
// This header is a leaf in lib/Support (constants only) so that
// lib/Analysis, which recognises the coarsening loops in an earlier pass's
// output, reads it without depending on the passes.

#include "llvm/ADT/StringRef.h"
#include <string>

namespace launchopt::generated {

// The reserved prefix of every generated identifier.
inline constexpr const char Prefix[] = "__lo_";

// Template with every '@' replaced by Prefix: `@bx` -> `__lo_bx`. Only for
// templates written in launchopt's sources, never for the user's text (an
// '@' in a comment or string there must stay).
inline std::string code(llvm::StringRef Template) {
  std::string S;
  for (char C : Template) {
    if (C == '@')
      S += Prefix;
    else
      S += C;
  }
  return S;
}

// --- Every pass that copies a kernel body (lib/Transforms/Common) ---

// Shadow copy of a device function that reads the built-in index variables:
// __lo_sh_<function>.
inline const std::string ShadowCopyPrefix = std::string(Prefix) + "sh_";
// The shadow copy of a member function of a class defined in an included
// file, written outside the class as a free function: __lo_sh_<class>_<member>.
// (A member of a class of the main file gets a member __lo_sh_<member>.)
inline std::string shadowMemberCopy(llvm::StringRef Class, llvm::StringRef Member) {
  return ShadowCopyPrefix + Class.str() + "_" + Member.str();
}
// The parameter of such a copy that stands for the object (`this`):
// __lo_self, so that no local of the copied body can hide it.
inline const std::string ShadowSelf = std::string(Prefix) + "self";
// An unnamed kernel parameter gets a name where a copy passes it on:
// __lo_p<index>.
inline const std::string UnnamedParameterPrefix = std::string(Prefix) + "p";
// The parameter through which a copied body receives a built-in index
// variable, which a local of the built-in's name then shadows:
// __lo_blockIdx for blockIdx.
inline std::string passedBuiltin(llvm::StringRef Builtin) { return Prefix + Builtin.str(); }

// --- Thresholding (lib/Transforms/Threshold) ---
namespace threshold {
// The serial version of a child, run by one parent thread: __lo_serial_<child>.
inline const std::string SerialPrefix = std::string(Prefix) + "serial_";
// One thread of the child, called by the serial version: __lo_thread_<child>.
inline const std::string ThreadPrefix = std::string(Prefix) + "thread_";
// How many serial copies of children in a launch cycle run inside each other:
// a file-scope constant 0 for kernels, which the serial and per-thread
// functions of such a child shadow with their parameter of the same name.
inline const std::string SerialDepth = std::string(Prefix) + "serialDepth";
} // namespace threshold

// --- Spawn (lib/Transforms/Spawn) ---
namespace spawn {
// The child run under the controller: __lo_spawned_<child>, a kernel that
// runs the child's threads and reports each finished block to the controller.
inline const std::string SpawnedPrefix = std::string(Prefix) + "spawned_";
// Its serial copy and one thread of it (thresholding's copy under names of
// its own, so that --threshold --spawn copy one child twice without clash):
// __lo_spawn_serial_<child>, __lo_spawn_thread_<child>.
inline const std::string SerialPrefix = std::string(Prefix) + "spawn_serial_";
inline const std::string ThreadPrefix = std::string(Prefix) + "spawn_thread_";
// The spawned kernel's extra parameter: the grid's ticket from admit().
inline const std::string Ticket = std::string(Prefix) + "ticket";
// The file's table of launch sites for the counters, and its registration.
inline const std::string CounterSites = std::string(Prefix) + "spawn_sites";
inline const std::string CounterRegistration = std::string(Prefix) + "spawn_counters";
} // namespace spawn

// --- Coarsening (lib/Transforms/Coarsen) ---
namespace coarsen {
// The coarsened child: __lo_coarse_<child>. Coarsening refuses a child that
// already carries it.
inline const std::string CoarsenedPrefix = std::string(Prefix) + "coarse_";
// One original block of the child, called from the coarsened kernel's loop:
// __lo_block_<child>.
inline const std::string BlockFunctionPrefix = std::string(Prefix) + "block_";
// The coarsened kernel's extra parameter: the grid the launch asked for.
inline const std::string OriginalGrid = std::string(Prefix) + "originalGrid";
// The coarsened kernel's loop counters over the original blocks, along x, y
// and z. The launch analysis does not count these loops as the user's.
inline const std::string BlockLoopVariables[3] = {
    std::string(Prefix) + "bx", std::string(Prefix) + "by", std::string(Prefix) + "bz"};
} // namespace coarsen

// --- Aggregation (lib/Transforms/Aggregate) ---
namespace aggregate {
// The aggregated child: __lo_agg_<child>. Aggregation refuses a child that
// already carries it.
inline const std::string AggregatedPrefix = std::string(Prefix) + "agg_";
// The body of a parent or child for one thread: __lo_part_<kernel>.
inline const std::string PartPrefix = std::string(Prefix) + "part_";
// Launches a finished scope's records: __lo_launch_<child>.
inline const std::string LauncherPrefix = std::string(Prefix) + "launch_";
// A parent launched from device code where its launch cannot be recorded:
// __lo_direct_<kernel>.
inline const std::string DirectPrefix = std::string(Prefix) + "direct_";
// The struct of one launch's arguments (__lo_args_<child>) and of those the
// launches of a scope share (__lo_uargs_<child>).
inline const std::string ArgumentsStructPrefix = std::string(Prefix) + "args_";
inline const std::string UniformArgumentsStructPrefix = std::string(Prefix) + "uargs_";
// A site's scope pointer, __lo_agg<site id>, and the file-scope array of its
// group scopes, __lo_groups_<parent>_<site id>.
inline const std::string ScopeVariablePrefix = std::string(Prefix) + "agg";
inline const std::string GroupArrayPrefix = std::string(Prefix) + "groups_";
// The aggregated kernel's parameter, which its scopes are found from.
inline const std::string AggregatedLaunch = std::string(Prefix) + "launch";
// Declared by the scope prologue, read by the epilogue: the thread's index in
// its block, and the block's thread count.
inline const std::string LinearThread = std::string(Prefix) + "thread";
inline const std::string BlockThreads = std::string(Prefix) + "blockThreads";
// References to a record's arguments and to the scope's shared ones, whose
// fields the aggregated kernel and the launcher pass on.
inline const std::string ArgumentsReference = std::string(Prefix) + "a";
inline const std::string UniformArgumentsReference = std::string(Prefix) + "u";
// --aggregate=host: the grid scope of a site of a host-launched parent,
// __lo_host_<parent>_<site id>; the kernel the host runs before the parent
// to reset the pool and arm its scopes, __lo_arm_<parent>; the host function
// that launches its aggregated grids after it, __lo_hostlaunch_<parent>.
inline const std::string HostScopePrefix = std::string(Prefix) + "host_";
inline const std::string ArmPrefix = std::string(Prefix) + "arm_";
inline const std::string HostLauncherPrefix = std::string(Prefix) + "hostlaunch_";
// --aggregate=host-or-device: the aggregated child the host launches,
// __lo_hagg_<child>, beside the one the device launches for smaller parent
// grids (AggregatedPrefix).
inline const std::string HostAggregatedPrefix = std::string(Prefix) + "hagg_";
// The stream, grid and block a rewritten host launch of a top-level parent
// binds (every aggregation mode), from which the record pool is prepared:
// __lo_hstream, __lo_hgrid, __lo_hblock.
inline const std::string HostStream = std::string(Prefix) + "hstream";
inline const std::string HostGrid = std::string(Prefix) + "hgrid";
inline const std::string HostBlock = std::string(Prefix) + "hblock";
// --aggregate=host-or-device: the copy of the parent that records into the
// scopes the host armed, __lo_hparent_<parent>, and the part functions'
// parameter that says which of the two runs it, __lo_hosted.
inline const std::string HostedParentPrefix = std::string(Prefix) + "hparent_";
inline const std::string HostedFlag = std::string(Prefix) + "hosted";
// A launch that finds the pool or its scope full runs in the launching
// thread (thresholding's serial copy under names of its own):
// __lo_hserial_<child>, __lo_hthread_<child>.
inline const std::string HostSerialPrefix = std::string(Prefix) + "hserial_";
inline const std::string HostThreadPrefix = std::string(Prefix) + "hthread_";
} // namespace aggregate

// --- Launch removal (lib/Transforms/RemoveLaunches) ---
namespace removal {
// T4: the child grid run by the launching parent thread, __lo_inline_<child>,
// and one child thread of it, __lo_ithread_<child> (thresholding's serial
// copy, under names of its own so that both passes can copy one child).
inline const std::string SerialPrefix = std::string(Prefix) + "inline_";
inline const std::string ThreadPrefix = std::string(Prefix) + "ithread_";
// T3: one recorded launch of a child, __lo_rec_<child>; one child thread run
// by a thread of the parent block, __lo_bthread_<child>; the parent block's
// list of recorded launches of a child, __lo_rl_<child>.
inline const std::string RecordPrefix = std::string(Prefix) + "rec_";
inline const std::string BlockThreadPrefix = std::string(Prefix) + "bthread_";
inline const std::string ListPrefix = std::string(Prefix) + "rl_";
// T1/T2: one launch recorded by a persistent parent grid, __lo_grec_<child>;
// the parent's queue of them, __lo_pq_<parent>; one original parent block
// run by a persistent block, __lo_pblock_<parent>; the persistent kernel,
// __lo_persistent_<parent>.
inline const std::string GridRecordPrefix = std::string(Prefix) + "grec_";
inline const std::string QueuePrefix = std::string(Prefix) + "pq_";
inline const std::string ParentBlockPrefix = std::string(Prefix) + "pblock_";
inline const std::string PersistentPrefix = std::string(Prefix) + "persistent_";
// A child that launches itself, run by the persistent grid of a parent: its
// grid run by one thread when the queue is full, __lo_pinline_<parent>_<child>,
// and one of its threads, __lo_pithread_<parent>_<child>; their launches of
// the child are recorded in the parent's queue.
inline const std::string PersistentSerialPrefix = std::string(Prefix) + "pinline_";
inline const std::string PersistentThreadPrefix = std::string(Prefix) + "pithread_";
} // namespace removal

// Kernel fusion (lib/Transforms/Fusion). Built from Prefix alone: a renamed
// buffer (Prefix + array + "_v" + version) and the locals of the loop that
// runs a member over its halo layers (Prefix + rx, ry, rz, wx, wy, wz, s).

// A new kernel's parameter for an array its members share: __lo_arr_<array>.
// A prefix of its own, so that no array name (`s`, `tile_x`) can make it one
// of the generated locals below.
inline const std::string FusedArrayParam = std::string(Prefix) + "arr_";

// A new kernel: __lo_fused_<n>.
inline const std::string FusedKernel = std::string(Prefix) + "fused_";
// The __device__ copy of an original kernel's body that new kernels call:
// __lo_body_<kernel>, with _in_fused_<n> when specialised for one of them.
inline const std::string FusedBody = std::string(Prefix) + "body_";
// A new kernel's parameter for member <i>'s scalar parameter <name>:
// __lo_m<i>_<name>.
inline const std::string FusedMemberParam = std::string(Prefix) + "m";
// The locals of a walk over a shared-memory tile (step s, site x and y,
// ring step r, column k, tile index t): __lo__<letter>.
inline const std::string TileWalkLocal = std::string(Prefix) + "_";
// Per shared array kept on chip: the register and whether it holds the
// value; the shared-memory tile and its per-site written flags.
inline const std::string OnChipRegister = std::string(Prefix) + "reg_";
inline const std::string OnChipRegisterSet = std::string(Prefix) + "has_";
inline const std::string OnChipTile = std::string(Prefix) + "tile_";
inline const std::string OnChipTileSet = std::string(Prefix) + "set_";
// A tile producer's parameters: the tile site it runs for, and whether that
// site is the thread's own (then it also writes GMEM).
inline const std::string TileSiteParam = std::string(Prefix) + "ts";
inline const std::string OwnSiteParam = std::string(Prefix) + "own";
// A recomputed producer's result at one neighbour site and whether it was
// written there: __lo_nb_<array>_<site>, __lo_nbset_<array>_<site>; the
// producer's own reference parameters to them: __lo_val_<array>,
// __lo_valset_<array>.
inline const std::string RecomputedRegister = std::string(Prefix) + "nb_";
inline const std::string RecomputedRegisterSet = std::string(Prefix) + "nbset_";
inline const std::string RecomputedValue = std::string(Prefix) + "val_";
inline const std::string RecomputedValueSet = std::string(Prefix) + "valset_";
// Temporal fusion (FusionTemporal.h): the kernel of k steps
// __lo_temporal_<kernel>, the body copy of one step __lo_tstep_<kernel> and
// the value of the ping-pong array after j steps __lo_tread_<kernel>; the
// virtual neighbour thread; the step count __lo_tsteps<n> (overridden by
// -DLAUNCHOPT_TEMPORAL_STEPS), the host locals __lo_tgroup<n> and
// __lo_tfirst<n>; other locals and template parameters __lo_t<name>.
inline const std::string TemporalKernel = std::string(Prefix) + "temporal_";
inline const std::string TemporalStep = std::string(Prefix) + "tstep_";
inline const std::string TemporalRead = std::string(Prefix) + "tread_";
inline const std::string TemporalNeighbour = std::string(Prefix) + "tneighbour";
inline const std::string TemporalSteps = std::string(Prefix) + "tsteps";
inline const std::string TemporalGroup = std::string(Prefix) + "tgroup";
inline const std::string TemporalFirst = std::string(Prefix) + "tfirst";
inline const std::string TemporalLocal = std::string(Prefix) + "t";
inline constexpr const char *TemporalStepsMacro = "LAUNCHOPT_TEMPORAL_STEPS";
// Temporal fusion in shared-memory tiles (--temporal-tiles): the kernel
// __lo_ttemporal_<kernel>, its step copy __lo_ttstep_<kernel>, the tile read
// __lo_ttread_<kernel>, one step over the widened block __lo_ttlevel_<kernel>,
// a level's tile cells __lo_ttcells_<kernel>, the dynamic shared memory
// __lo_ttilemem and the launch's block __lo_tblock<n>.
inline const std::string TemporalTileKernel = std::string(Prefix) + "ttemporal_";
inline const std::string TemporalTileStep = std::string(Prefix) + "ttstep_";
inline const std::string TemporalTileRead = std::string(Prefix) + "ttread_";
inline const std::string TemporalTileLevel = std::string(Prefix) + "ttlevel_";
inline const std::string TemporalTileCells = std::string(Prefix) + "ttcells_";
inline const std::string TemporalTileMemory = std::string(Prefix) + "ttilemem";
inline const std::string TemporalTileBlock = std::string(Prefix) + "tblock";
// A segment's renamed buffers (launchopt::RenamedArrays): __lo_renamed_<n>.
inline const std::string RenamedBufferSet = std::string(Prefix) + "renamed_";
// The event timing of --timing-hooks: __lo_fusion_ + names, events, ms,
// begin, end; and the report the user's program calls.
inline const std::string FusionTiming = std::string(Prefix) + "fusion_";
inline const std::string FusionTimingReport = std::string(Prefix) + "fusion_timing_report";

// --- Launch promotion (lib/Transforms/Promote) ---
namespace promote {
// The kernel's parameters as one struct, stored for the successor:
// __lo_promote_args_<kernel>; and the function that packs them as a launch
// would convert the arguments: __lo_promote_pack_<kernel>.
inline const std::string ArgsPrefix = std::string(Prefix) + "promote_args_";
inline const std::string PackPrefix = std::string(Prefix) + "promote_pack_";
// The kernel's body as a device function that the host-launched kernel and
// the pool kernel both call: __lo_promote_body_<kernel>.
inline const std::string BodyPrefix = std::string(Prefix) + "promote_body_";
// The kernel of a pool of successors, one block each: __lo_promote_pool_<kernel>.
inline const std::string PoolPrefix = std::string(Prefix) + "promote_pool_";
// The shared-memory hand-over to the successor that the body's launch site
// and the wrappers share: __lo_site.
inline const std::string Site = std::string(Prefix) + "site";
} // namespace promote

} // namespace launchopt::generated

#endif
