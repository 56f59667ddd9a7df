#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONONCHIPPLAN_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONONCHIPPLAN_H

// What a new kernel keeps on chip and the body edits that follow from it:
// planned by FusionOnChip (registers, tiles) and FusionRecompute
// (recomputation), followed by FusionCodegen.

#include <array>
#include <set>
#include <string>
#include <vector>

namespace launchopt {

// Where the fused kernel keeps one shared array between its members' bodies
// (paper §II-D).
enum class OnChipPath {
  // A value at the thread's own site that several members touch: loaded or
  // produced once, then read from a register by every later access.
  Register,
  // A producer computed over halo layers writes its results into a
  // __shared__ tile (block plus halo); consumers read neighbours from it.
  SharedTile,
  // A producer whose results later members (each at its own site) read at a
  // few neighbour offsets: every thread runs it at its own site and again at
  // each of those neighbours, into registers. No tile and no barrier; the
  // neighbours' loads are other threads' own loads, served by L1 or L2.
  Recomputed,
  // Neighbour dependence kept in GMEM (the producer writes its halo sites
  // there too): the tile does not fit or the shapes do not allow one.
  Global,
};

// Halo layers per side of a block: x below, x above, y below, y above.
using RingSides = std::array<unsigned, 4>;

struct OnChipArray {
  unsigned Allocation = 0;
  OnChipPath Path = OnChipPath::Global;
  std::string Name;    // the array (allocation) name
  std::string Element; // element type
  unsigned Radius = 0; // SharedTile, Recomputed: the producer's halo layers
  // Member positions whose bodies use the register or tile.
  std::set<unsigned> Members;
  std::string Why;     // Global: why it is not on chip
  // Nothing outside the new kernel loads what it stores (a droppable
  // scratch array read on chip only, Model/DeadStores.h): its stores are
  // left out, except at the own sites EdgeStores holds at (empty: none).
  bool StoresLeftOut = false;
  std::string EdgeStores;
};

// The text that follows a producer's store into a tile or register and
// also puts the value (Store: `a[i] = value`) to GMEM at the thread's own
// site, as far as A keeps its stores; empty when it keeps none.
std::string ownSiteStore(const OnChipArray &A, const std::string &Store);

// A site a recomputing producer runs at, relative to the thread's own.
struct SiteOffset {
  long long X = 0, Y = 0;
  bool operator<(const SiteOffset &O) const { return X != O.X ? X < O.X : Y < O.Y; }
  bool operator==(const SiteOffset &O) const { return X == O.X && Y == O.Y; }
  // "x0_ym1": part of the names of the registers that hold the results.
  std::string tag() const;
};

// A text edit of a member's body, in main-file offsets (Begin == End
// inserts).
struct BodyEdit {
  unsigned Begin = 0, End = 0;
  std::string Text;
};

struct OnChipPlan {
  std::vector<OnChipArray> Arrays;
  // Per member position: edits of its body, extra parameters and arguments
  // (before the block and thread index), and whether it writes tiles (its
  // halo loop then walks the tile and passes the tile site and ownership).
  std::vector<std::vector<BodyEdit>> Edits;
  std::vector<std::string> ExtraParams, ExtraArgs;
  std::vector<std::vector<std::string>> TilesWritten;
  // Per member that writes tiles: how many of its halo layers later members
  // read on each side; its walk of the tile visits only those sites.
  std::vector<RingSides> RingNeeded;
  // Per member that recomputes (OnChipPath::Recomputed): the sites it runs
  // at, its own first, and the arrays it writes into registers there, in
  // the order of its extra parameters (after ExtraArgs: per array the
  // register and its written flag, then whether the site is its own).
  std::vector<std::vector<SiteOffset>> RecomputeSites;
  std::vector<std::vector<std::string>> Recomputed;
  std::string Declarations; // registers and tiles, at the top of the kernel
  // The block shape the tiles are laid out for (the launch's constant
  // block); a tile spans block + 2 * radius along every axis wider than 1.
  unsigned Block[3] = {1, 1, 1};

  OnChipPlan() = default;
  // No arrays yet, and room for the per-member fields of Members members.
  explicit OnChipPlan(unsigned Members);
  // Every array of a new kernel with Members members in GMEM.
  OnChipPlan(unsigned Members, std::string Why);

  bool any() const;
  // The path of an allocation (Global when the plan does not list it).
  OnChipPath pathOf(unsigned Allocation) const;
  // "registers: h u; shared-memory tiles: hu (halo 1); global: dv (...)".
  std::string summary() const;
};

} // namespace launchopt

#endif
