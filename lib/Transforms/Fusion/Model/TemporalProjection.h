#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_TEMPORALPROJECTION_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_TEMPORALPROJECTION_H

// Temporal fusion (issue 21 item 5): one stencil kernel launched in a time
// loop with ping-pong buffers, k of its steps fused into one kernel that
// recomputes the earlier steps over a halo widened by the stencil radius per
// step. Projected like a new kernel (ProjectionModel.h): GMEM traffic of the
// group is one step's (each read array loaded once, the output stored once),
// the recomputed cone of the earlier steps is charged as loads from the L2
// cache, and every recomputed evaluation's loads at the measured rate of
// register recomputation (GpuDescription::RecomputeBandwidth), which its
// index arithmetic, not L1, bounds.

#include "FusionProblem.h"
#include "GpuDescription.h"
#include <string>

namespace launchopt {

struct TemporalProjection {
  unsigned Steps = 1;
  double GlobalBytes = 0;    // per group of Steps steps
  double CacheBytes = 0;     // per group: every block's dependence cone
  // Per group: the loads of the recomputed evaluations. A step's value at
  // a site evaluates the step before at each of the stencil's L points, so
  // the k-step group evaluates L + ... + L^(k-1) times per site, each
  // evaluation loading what one original thread loads.
  double RecomputedBytes = 0;
  double Seconds = 0;        // per group
  // Tiles only: the dynamic shared memory of a block (the two levels held
  // at once, values and written flags) and its barriers' time per group.
  bool Tiles = false;
  bool Feasible = true;
  std::string Infeasibility;
  double TileBytes = 0;
  double BarrierSeconds = 0;
  double SecondsPerStep = 0; // Seconds / Steps
  double OriginalPerStep = 0; // P(K), measured or projected
};

// Kernel K stepped Steps times; PingPong is the array it reads at the
// neighbours and whose next version it writes; Axes the number of axes its
// sites span (the cone widens along each axis the stencil reaches).
TemporalProjection projectTemporalFusion(const FusionProblem &P, unsigned K, unsigned PingPong,
                                         const unsigned Reach[3], unsigned Steps,
                                         const GpuDescription &Gpu);

// The same steps computed in shared-memory tiles (FusionTemporal.h): a
// block evaluates step j over its sites widened by (Steps - j) reaches,
// step 1 from the input in GMEM, every later step from the tile of the step
// before, with a barrier between steps. Its evaluations beyond one per site
// are charged at the rate of register recomputation (each finds its
// neighbour thread and indexes the tile at every point the stencil reads),
// the input's widest cone and the other arrays at every evaluated site to
// L2, and one memory latency per barrier.
TemporalProjection projectTemporalTiles(const FusionProblem &P, unsigned K, unsigned PingPong,
                                        const unsigned Reach[3], unsigned Steps,
                                        const GpuDescription &Gpu);

// The step count with the least projected time per step among 2..MaxSteps,
// or 1 when none is below the original's; the projection of the choice.
TemporalProjection chooseTemporalSteps(const FusionProblem &P, unsigned K, unsigned PingPong,
                                       const unsigned Reach[3], unsigned MaxSteps,
                                       const GpuDescription &Gpu, bool Tiles = false);

} // namespace launchopt

#endif
