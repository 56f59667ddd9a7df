// launchopt device runtime: whether a removed launch would have started.
//
// A launch whose configuration the device refuses fails, and its child never
// runs; the code that replaces a removed launch asks this first, so that it
// runs the child exactly when the launch would have. Self-contained: outputs
// of T4 use nothing else of the runtime.
#pragma once

#include <cuda_runtime.h>

namespace launchopt {
namespace removal {

// Whether a launch with this configuration would start: an empty grid, or a
// grid or block over the limits of compute capability 9.0 (a wrapped count
// gives one), makes it fail, and then its child never runs.
static __device__ inline bool launchable(const dim3 &grid, const dim3 &block) {
  unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
  return grid.x >= 1 && grid.x <= 0x7fffffffu && grid.y >= 1 && grid.y <= 65535u && grid.z >= 1 &&
         grid.z <= 65535u && block.x >= 1 && block.x <= 1024u && block.y >= 1 &&
         block.y <= 1024u && block.z >= 1 && block.z <= 64u && threads <= 1024u;
}

} // namespace removal
} // namespace launchopt
