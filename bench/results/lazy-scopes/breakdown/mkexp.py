import re, sys
for app in ["bfs", "sssp", "spmv", "gc"]:
    src = open(f"bench/apps/{app}/generated/{app}_cdp.auto.cu").read()
    noscope = re.sub(r"\? &__lo_groups_\w+_1\[__lo_agg1_group\] : nullptr;", "? nullptr : nullptr;", src)
    assert noscope != src
    lines = noscope.split("\n")
    out = []
    i = 0
    drop = 0
    for k, l in enumerate(lines):
        if "launchopt::openGroupScope(__lo_agg1" in l:
            drop = 2
            out.append(l); continue
        if drop and l.strip() == "__syncthreads();":
            drop -= 1
            continue
        out.append(l)
    nosync = "\n".join(out)
    assert nosync.count("__syncthreads();") == noscope.count("__syncthreads();") - 2
    noreset = re.sub(r"launchopt::resetPool\([^;]*\);", "", src)
    assert noreset != src
    for name, text in [("noscope", noscope), ("nosync", nosync), ("noreset", noreset)]:
        open(f"bench/apps/{app}/generated/{app}_cdp.exp-{name}.cu", "w").write(text)
