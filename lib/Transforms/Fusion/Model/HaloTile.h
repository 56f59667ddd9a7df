#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_HALOTILE_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_HALOTILE_H

namespace launchopt {

// Static shared memory one block of a fused kernel may declare for its
// tiles (without opting in to the larger dynamic carve-out).
constexpr unsigned HaloTileSharedLimit = 48 * 1024;

// The __shared__ tile a producer computed over Radius halo layers fills
// (paper §II-D2): the block plus 2 * Radius along every axis wider than 1.
// Code generation lays tiles out with it and the projection model charges
// their shared memory with it, so both see the same tile.
struct HaloTile {
  unsigned Width = 1, Height = 1;

  unsigned sites() const { return Width * Height; }
  // The values and, per site, one byte saying whether the producer wrote it.
  unsigned bytes(unsigned ElementBytes) const { return sites() * (ElementBytes + 1); }
};

inline HaloTile haloTile(const unsigned Block[3], unsigned Radius) {
  HaloTile T;
  T.Width = Block[0] > 1 ? Block[0] + 2 * Radius : 1;
  T.Height = Block[1] > 1 ? Block[1] + 2 * Radius : 1;
  return T;
}

} // namespace launchopt

#endif
