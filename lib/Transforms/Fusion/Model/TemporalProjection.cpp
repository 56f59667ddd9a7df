#include "TemporalProjection.h"

#include <algorithm>
#include <cmath>

namespace launchopt {

namespace {

// Sites a block of the kernel needs of an array read Layers steps before the
// last one: its own sites widened by the stencil's reach per step along each
// axis the stencil reaches.
double coneSites(const OriginalKernel &K, const unsigned Reach[3], unsigned Layers) {
  double Sites = 1;
  for (unsigned Axis = 0; Axis < 3; ++Axis)
    Sites *= K.BlockDim[Axis] + 2.0 * Reach[Axis] * Layers;
  return Sites;
}

// Dynamic shared memory a launch gets without opting in to more.
const double DynamicSharedMemoryLimit = 48 * 1024;

} // namespace

TemporalProjection projectTemporalFusion(const FusionProblem &P, unsigned K, unsigned PingPong,
                                         const unsigned Reach[3], unsigned Steps,
                                         const GpuDescription &Gpu) {
  const OriginalKernel &Kernel = P.Kernels[K];
  TemporalProjection T;
  T.Steps = Steps;
  double StepBytes = 0;
  for (const ArrayUse &U : Kernel.Uses) {
    double Bytes = Kernel.sites() * P.Arrays[U.Array].ElementBytes;
    StepBytes += (U.Reads + U.Writes) * Bytes;
    if (!U.Reads)
      continue;
    // The ping-pong array is read by the first step over the whole cone;
    // every other read array by each recomputed step, over one layer less.
    unsigned Layers = U.Array == PingPong ? Steps : Steps - 1;
    T.CacheBytes +=
        double(Kernel.Blocks) * coneSites(Kernel, Reach, Layers) * P.Arrays[U.Array].ElementBytes;
  }
  T.GlobalBytes = StepBytes;
  double Evaluations = 0, Power = 1, LoadBytes = 0;
  const ArrayUse *Stencil = Kernel.use(PingPong);
  for (unsigned J = 1; J < Steps; ++J)
    Evaluations += Power *= Stencil ? Stencil->ThreadLoad : 1;
  for (const ArrayUse &U : Kernel.Uses)
    if (U.Reads)
      LoadBytes += double(U.ThreadLoad) * P.Arrays[U.Array].ElementBytes;
  T.RecomputedBytes = Kernel.sites() * Evaluations * LoadBytes;
  T.Seconds = std::max({T.GlobalBytes / Gpu.MemoryBandwidth, T.CacheBytes / Gpu.CacheBandwidth,
                        T.RecomputedBytes / Gpu.RecomputeBandwidth});
  T.SecondsPerStep = T.Seconds / Steps;
  T.OriginalPerStep =
      Kernel.MeasuredSeconds > 0 ? Kernel.MeasuredSeconds : StepBytes / Gpu.MemoryBandwidth;
  return T;
}

TemporalProjection projectTemporalTiles(const FusionProblem &P, unsigned K, unsigned PingPong,
                                        const unsigned Reach[3], unsigned Steps,
                                        const GpuDescription &Gpu) {
  const OriginalKernel &Kernel = P.Kernels[K];
  TemporalProjection T = projectTemporalFusion(P, K, PingPong, Reach, Steps, Gpu);
  T.Tiles = true;
  double Threads = Kernel.threadsPerBlock();
  double Evaluated = 0; // per block, all steps
  for (unsigned J = 1; J <= Steps; ++J)
    Evaluated += coneSites(Kernel, Reach, Steps - J);
  double LoadBytes = 0;
  T.CacheBytes = 0;
  for (const ArrayUse &U : Kernel.Uses) {
    if (!U.Reads)
      continue;
    double Element = P.Arrays[U.Array].ElementBytes;
    LoadBytes += U.ThreadLoad * Element;
    T.CacheBytes += Kernel.Blocks * Element *
                    (U.Array == PingPong ? coneSites(Kernel, Reach, Steps) : Evaluated);
  }
  T.RecomputedBytes = Kernel.Blocks * (Evaluated - Threads) * LoadBytes;
  const ArrayUse *Stencil = Kernel.use(PingPong);
  double Element = Stencil ? P.Arrays[PingPong].ElementBytes : 4;
  T.TileBytes = Steps > 1 ? 2 * coneSites(Kernel, Reach, Steps - 1) * (Element + 1) : 0;
  if (T.TileBytes > DynamicSharedMemoryLimit) {
    T.Feasible = false;
    T.Infeasibility = "its tiles need " + std::to_string(unsigned(T.TileBytes)) +
                      " bytes of shared memory per block, more than 48 KiB";
  }
  unsigned Blocks = std::min(Gpu.MaxBlocksPerMultiprocessor,
                             Gpu.MaxThreadsPerMultiprocessor / std::max(1u, unsigned(Threads)));
  if (T.TileBytes > 0)
    Blocks = std::min<unsigned>(Blocks, unsigned(Gpu.SharedMemoryPerMultiprocessor / T.TileBytes));
  Blocks = std::max(1u, Blocks);
  // As for spatial fusion's barriers (ProjectionModel.cpp): a block at a
  // barrier leaves its slot idle for about one memory latency.
  double Waves = std::ceil(double(Kernel.Blocks) / (double(Gpu.Multiprocessors) * Blocks));
  T.BarrierSeconds = (Steps - 1) * Waves * Gpu.BarrierLatency / Blocks;
  T.Seconds = std::max({T.GlobalBytes / Gpu.MemoryBandwidth, T.CacheBytes / Gpu.CacheBandwidth,
                        T.RecomputedBytes / Gpu.RecomputeBandwidth}) +
              T.BarrierSeconds;
  T.SecondsPerStep = T.Seconds / Steps;
  return T;
}

TemporalProjection chooseTemporalSteps(const FusionProblem &P, unsigned K, unsigned PingPong,
                                       const unsigned Reach[3], unsigned MaxSteps,
                                       const GpuDescription &Gpu, bool Tiles) {
  auto Project = Tiles ? projectTemporalTiles : projectTemporalFusion;
  TemporalProjection Best = Project(P, K, PingPong, Reach, 1, Gpu);
  Best.SecondsPerStep = Best.OriginalPerStep;
  for (unsigned Steps = 2; Steps <= MaxSteps; ++Steps) {
    TemporalProjection T = Project(P, K, PingPong, Reach, Steps, Gpu);
    if (T.Feasible && T.SecondsPerStep < Best.SecondsPerStep)
      Best = T;
  }
  return Best;
}

} // namespace launchopt
