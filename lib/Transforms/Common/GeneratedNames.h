#ifndef LAUNCHOPT_TRANSFORMS_COMMON_GENERATEDNAMES_H
#define LAUNCHOPT_TRANSFORMS_COMMON_GENERATEDNAMES_H

// Every identifier launchopt writes into a user's program starts with the
// reserved prefix below, so that it cannot collide with a user's name. Each
// generated name or name prefix is spelled here once.

namespace launchopt::generated {

// The reserved prefix of every generated identifier.
inline constexpr const char Prefix[] = "__lo_";

// Kernel fusion (lib/Transforms/Fusion). Built from Prefix alone: a fused
// kernel's parameter for an array its members share (Prefix + array), a
// renamed buffer (Prefix + array + "_v" + version) and the locals of the
// loop that runs a member over its halo layers (Prefix + rx, ry, rz, wx,
// wy, wz, s).

// A new kernel: __lo_fused_<n>.
inline constexpr const char FusedKernel[] = "__lo_fused_";
// The __device__ copy of an original kernel's body that new kernels call:
// __lo_body_<kernel>, with _in_fused_<n> when specialised for one of them.
inline constexpr const char FusedBody[] = "__lo_body_";
// The block and thread index a body copy runs for, which its locals
// blockIdx and threadIdx shadow the built-ins with.
inline constexpr const char FusedBodyBlockIdx[] = "__lo_blockIdx";
inline constexpr const char FusedBodyThreadIdx[] = "__lo_threadIdx";
// A new kernel's parameter for member <i>'s scalar parameter <name>:
// __lo_m<i>_<name>.
inline constexpr const char FusedMemberParam[] = "__lo_m";
// The locals of a walk over a shared-memory tile (step s, site x and y,
// ring step r, column k, tile index t): __lo__<letter>. The doubled
// underscore keeps them apart from the array parameters Prefix + array.
inline constexpr const char TileWalkLocal[] = "__lo__";
// Per shared array kept on chip: the register and whether it holds the
// value; the shared-memory tile and its per-site written flags.
inline constexpr const char OnChipRegister[] = "__lo_reg_";
inline constexpr const char OnChipRegisterSet[] = "__lo_has_";
inline constexpr const char OnChipTile[] = "__lo_tile_";
inline constexpr const char OnChipTileSet[] = "__lo_set_";
// A tile producer's parameters: the tile site it runs for, and whether that
// site is the thread's own (then it also writes GMEM).
inline constexpr const char TileSiteParam[] = "__lo_ts";
inline constexpr const char OwnSiteParam[] = "__lo_own";
// A recomputed producer's result at one neighbour site and whether it was
// written there: __lo_nb_<array>_<site>, __lo_nbset_<array>_<site>; the
// producer's own reference parameters to them: __lo_val_<array>,
// __lo_valset_<array>.
inline constexpr const char RecomputedRegister[] = "__lo_nb_";
inline constexpr const char RecomputedRegisterSet[] = "__lo_nbset_";
inline constexpr const char RecomputedValue[] = "__lo_val_";
inline constexpr const char RecomputedValueSet[] = "__lo_valset_";
// A segment's renamed buffers (launchopt::RenamedArrays): __lo_renamed_<n>.
inline constexpr const char RenamedBufferSet[] = "__lo_renamed_";
// The event timing of --timing-hooks: __lo_fusion_ + names, events, ms,
// begin, end; and the report the user's program calls.
inline constexpr const char FusionTiming[] = "__lo_fusion_";
inline constexpr const char FusionTimingReport[] = "__lo_fusion_timing_report";

} // namespace launchopt::generated

#endif
