#!/usr/bin/env python3
"""Fusion efficiency (paper eq. 12) and projected vs measured time per new
kernel, from the problem and plan launchopt wrote and the GPU log.
Loads/stores per site: an original kernel loads each array it reads and
stores each it writes; a new kernel loads an array once when its first
access reads it and stores it once when any member writes it."""
import json, re, sys

stencil = "bench/fusion/stencil"
log = open(sys.argv[1] if len(sys.argv) > 1 else "bench/results/fusion/gpu/log.txt").read()
problem = json.load(open(f"{stencil}/problem.json"))
plan = json.load(open(f"{stencil}/gpu-plan.out.json"))
kernels = {k["name"]: k for k in problem["kernels"]}

def launch_times(section):
    block = log.split(f"-- per-launch times: {section}\n")[1].split("\n--")[0].split("\n==")[0]
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"launch \d+ (\S+): ([\d.]+) ms", block)}

original = launch_times("dycore.timed")
fused = launch_times("dycore.fused")

def memory_ops(members):
    first, written = {}, set()
    for name in members:
        for use in kernels[name]["uses"]:
            first.setdefault(use["array"], use["access"] != "write")
            if use["access"] != "read":
                written.add(use["array"])
    return sum(first.values()) + len(written)

rows = ["new_kernel,members,ld_st_original,ld_st_fused,measured_original_sum_ms,measured_ms,projected_ms,fusion_efficiency"]
print(f"{'new kernel':45} {'LD+ST':>9} {'orig ms':>8} {'fused ms':>8} {'proj ms':>8} {'FE':>6}")
for nk in plan["new_kernels"]:
    members = nk["members"]
    if len(members) < 2:
        continue
    name = "+".join(members)
    ops_orig = sum(memory_ops([m]) for m in members)
    ops_fused = memory_ops(members)
    t_orig = sum(original[m] for m in members)
    t_fused = fused[name]
    fe = (ops_fused / ops_orig) / (t_fused / t_orig)
    proj = nk["projected_seconds"] * 1e3
    rows.append(f"{name},{len(members)},{ops_orig},{ops_fused},{t_orig:.4f},{t_fused:.4f},{proj:.4f},{fe:.3f}")
    print(f"{name:45} {ops_orig:>4}->{ops_fused:<4} {t_orig:8.4f} {t_fused:8.4f} {proj:8.4f} {fe:6.1%}")
steps = re.findall(r"-- (original|dycore\.fused|dycore\.halo) \(round \d\)\n(?:compare: .*\n)?step: median ([\d.]+) ms", log)
med = {}
for v, t in steps:
    med.setdefault(v, []).append(float(t))
o = min(med["original"])
for v in ("dycore.fused", "dycore.halo"):
    print(f"step speedup {v}: {o / min(med[v]):.2f}x ({o:.4f} ms -> {min(med[v]):.4f} ms)")
open("bench/results/fusion/gpu/efficiency.csv", "w").write("\n".join(rows) + "\n")
