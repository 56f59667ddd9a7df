#!/usr/bin/env python3
"""Per program of the fusion corpus, from the GPU log of run_gpu.sh and what
generate.sh wrote (problem.json, plan.json): step time and speedup of every
fused build against the original, and per new kernel its fusion efficiency
(eq. 12, as bench/fusion/efficiency.py computes it for the stencil test-bed)
and its achieved DRAM bandwidth against the device's copy bandwidth.

Memory operations per kernel: it loads each array whose first access reads
it, and stores each array it writes (bench/fusion/efficiency.py). Bytes:
those arrays' sizes as the program printed them ("array NAME ELEMENTS
BYTES"); an array the program did not name is taken as one element per
thread of the launch (marked ~). Kernel times are the per-launch times of the
timing-hooks builds (<prog>.timed: the original's launches; <prog>.fused);
a new kernel's members are matched to the original launches by kernel name,
in launch order when a kernel is launched from several places.
Usage: efficiency.py [log] [results folder]"""
import csv, json, os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
log_path = sys.argv[1] if len(sys.argv) > 1 else "bench/results/fusion/programs/log.txt"
out = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(log_path)
log = open(log_path).read()
PEAK_GBS = 3000.0  # the H100's measured device-to-device copy bandwidth (bench/fusion/README.md)
# Launch sites that run more than once per step (the per-launch report divides by steps).
EXECUTIONS_PER_STEP = {"euler_mesh": {"cuda_compute_flux": 3, "cuda_time_step": 3}}

def section(title):
    """Text of the log between '-- title' and the next section."""
    marker = f"-- {title}\n"
    if marker not in log:
        return None
    return re.split(r"\n(?:--|==) ", log.split(marker, 1)[1])[0]

def launch_times(program, variant):
    block = section(f"per-launch times: {program}.{variant}")
    if block is None:
        return None
    return [(m.group(1), float(m.group(2))) for m in re.finditer(r"launch \d+ (\S+): ([\d.]+) ms", block)]

def array_bytes(program):
    block = section(f"{program} (round 1)") or ""
    return {m.group(1): int(m.group(2)) * int(m.group(3))
            for m in re.finditer(r"^array (\S+) (\d+) (\d+)$", block, re.M)}

def memory_ops(kernels):
    """(loaded arrays, stored arrays) of kernels run as one."""
    first, written = {}, set()
    for k in kernels:
        for use in k["uses"]:
            first.setdefault(use["array"], use["access"] != "write")
            if use["access"] != "read":
                written.add(use["array"])
    return [a for a, read in first.items() if read], sorted(written)

def take(queue, name):
    """The first unused entry named name (launch order)."""
    for i, (n, v) in enumerate(queue):
        if n == name:
            return queue.pop(i)[1]
    raise KeyError(name)

def step_times(program):
    """binary -> best median step time over the rounds."""
    best = {}
    for m in re.finditer(rf"^RESULT program={program} binary=(\S+) .*?step_ms=([\d.]+)", log, re.M):
        b, t = m.group(1), float(m.group(2))
        best[b] = min(best.get(b, t), t)
    return best

rows = [["program", "variant", "new_kernel", "ld_st_original", "ld_st_fused", "original_ms",
         "fused_ms", "fusion_efficiency", "bytes", "GB_per_s", "of_peak"]]
for program in sorted(d for d in os.listdir(here) if os.path.isfile(f"{here}/{d}/{d}.cu")):
    steps = step_times(program)
    print(f"== {program}")
    if program not in steps:
        print("  not run")
        continue
    for binary in sorted(steps):
        if binary != program:
            o, f = steps[program], steps[binary]
            print(f"  step {binary}: {o:.4f} ms -> {f:.4f} ms, speedup {o / f:.2f}x")
    if len(steps) == 1:
        print("  no fused build (see fuse.log)")
    original = launch_times(program, "timed")
    sizes = array_bytes(program)
    try:
        problem = json.load(open(f"{here}/{program}/problem.json"))
        plan = json.load(open(f"{here}/{program}/plan.json"))
    except (OSError, ValueError):
        print("  no plan or problem from launchopt: no per-kernel figures")
        continue
    if not original:
        print("  no per-launch times of the original (launchopt timed no launch): no fusion efficiency")
    executions = EXECUTIONS_PER_STEP.get(program, {})
    # Every timed launchopt output but the original's (fused, and for heat3d
    # the forced temporal builds).
    variants = sorted(set(re.findall(rf"^-- per-launch times: {program}\.(\S+)$", log, re.M)) -
                      {"timed"})
    for variant in variants:
        fused = launch_times(program, variant)
        if not fused:
            continue
        kernels = [(k["name"], k) for k in problem["kernels"]]
        times = list(original or [])
        fused_queue = list(fused)
        for nk in plan["new_kernels"]:
            members = [take(kernels, name) for name in nk["members"]]
            member_times = [take(times, n) for n in nk["members"]] if original else None
            # A kernel fused over time (launchopt's temporal fusion) is timed as
            # "<kernel>*<k>": per step, one launch of k steps divided by k; it
            # moves one step's arrays per launch, so 1/k of them per step.
            temporal = [(n, v) for n, v in fused_queue if len(members) == 1 and
                        re.fullmatch(re.escape(nk["members"][0]) + r"\*\d+", n)]
            if len(members) < 2 and not temporal:
                continue
            group = int(temporal[0][0].rsplit("*", 1)[1]) if temporal else 1
            name = temporal[0][0] if temporal else "+".join(nk["members"])
            t_fused = take(fused_queue, name)
            loads, stores = memory_ops(members)
            ops_fused = len(loads) + len(stores)
            ops_fused = ops_fused / group if group > 1 else ops_fused
            ops_orig = sum(len(sum(memory_ops([m]), [])) for m in members)
            threads = members[0]["blocks"] * members[0]["block"][0] * members[0]["block"][1] * members[0]["block"][2]
            estimated = [a for a in loads + stores if a not in sizes]
            elem = {a["name"]: a["element_bytes"] for a in problem["arrays"]}
            nbytes = sum(sizes.get(a, threads * elem.get(a, 4)) for a in loads + stores)
            nbytes *= max(executions.get(n, 1) for n in nk["members"])
            gbs = nbytes / (t_fused * group * 1e-3) / 1e9
            fe = ""
            t_orig = ""
            if original:
                t_orig = sum(member_times)
                fe = (ops_fused / ops_orig) / (t_fused / t_orig)
            print(f"  {variant} {name}: LD+ST {ops_orig}->{ops_fused:g}, "
                  f"{t_orig if t_orig == '' else f'{t_orig:.4f}'} -> {t_fused:.4f} ms, "
                  f"FE {fe if fe == '' else f'{fe:.1%}'}, {'~' if estimated else ''}{nbytes / 1e6:.1f} MB "
                  f"at {gbs:.0f} GB/s ({gbs / PEAK_GBS:.0%} of {PEAK_GBS:.0f})")
            rows.append([program, variant, name, ops_orig, ops_fused, t_orig, f"{t_fused:.4f}",
                         fe if fe == "" else f"{fe:.3f}", nbytes, f"{gbs:.0f}", f"{gbs / PEAK_GBS:.3f}"])
os.makedirs(out, exist_ok=True)
with open(f"{out}/efficiency.csv", "w", newline="") as f:
    csv.writer(f).writerows(rows)
