#include "TemporalProjection.h"

#include <algorithm>

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

TemporalProjection chooseTemporalSteps(const FusionProblem &P, unsigned K, unsigned PingPong,
                                       const unsigned Reach[3], unsigned MaxSteps,
                                       const GpuDescription &Gpu) {
  TemporalProjection Best = projectTemporalFusion(P, K, PingPong, Reach, 1, Gpu);
  Best.SecondsPerStep = Best.OriginalPerStep;
  for (unsigned Steps = 2; Steps <= MaxSteps; ++Steps) {
    TemporalProjection T = projectTemporalFusion(P, K, PingPong, Reach, Steps, Gpu);
    if (T.SecondsPerStep < Best.SecondsPerStep)
      Best = T;
  }
  return Best;
}

} // namespace launchopt
