# Diagnostic variants of auto's outputs (not for use: x-nofence and x-noepi are
# correct only where nothing is aggregated, as on the meshes).
import re
for app in ["bfs", "sssp", "spmv"]:
    src = open(f"bench/apps/{app}/generated/{app}_cdp.auto.cu").read()
    fence = "__device__ inline bool lastBlockOfScope(AggregationScope *scope, unsigned blocksInScope) {\n  __threadfence();\n"
    assert fence in src
    nofence = src.replace(fence, "__device__ inline bool lastBlockOfScope(AggregationScope *scope, unsigned blocksInScope) {\n")
    m = re.search(r"\n  __syncthreads\(\);\n  if \(__lo_thread == 0 && __lo_agg1 && launchopt::lastBlockOfScope\(.*?\n  \}\n", src, re.S)
    assert m
    noepi = src[:m.start()] + "\n" + src[m.end():]
    # warp 0 alone waits for the opener; readers wait while the scope is unset too
    p = re.search(r"  if \(__lo_thread == 0 && __lo_agg1\)\n    launchopt::openGroupScope\((.*?)\);\n  __syncthreads\(\);\n", src)
    assert p
    warp0 = src[:p.start()] + "  if (__lo_thread < 32) {\n    if (__lo_thread == 0 && __lo_agg1)\n      launchopt::openGroupScope(" + p.group(1) + ");\n    __syncwarp();\n  }\n" + src[p.end():]
    old = "  unsigned long long launch = *slot;\n  if (launch != claimed)\n    return reinterpret_cast<AggregatedLaunch *>(launch);\n  while ((launch = *slot) == claimed)\n    ;\n"
    assert old in warp0
    warp0 = warp0.replace(old, "  unsigned long long launch = *slot;\n  if (launch != claimed && launch != 0)\n    return reinterpret_cast<AggregatedLaunch *>(launch);\n  while ((launch = *slot) == claimed || launch == 0)\n    ;\n")
    for n, t in [("nofence", nofence), ("noepi", noepi), ("warp0", warp0)]:
        open(f"bench/.build/carry3/{app}_cdp.x-{n}.cu", "w").write(t)
