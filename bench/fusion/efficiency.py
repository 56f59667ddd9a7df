#!/usr/bin/env python3
"""Fusion efficiency (paper eq. 12) and projected vs measured time per new
kernel, from the problem and plans launchopt wrote and the GPU log.
Loads/stores per site: an original kernel loads each array it reads and
stores each it writes; a new kernel loads an array once when its first
access reads it and stores it once when any member writes it.
Usage: efficiency.py [log] [results folder]"""
import csv, json, re, sys

stencil = "bench/fusion/stencil"
log = open(sys.argv[1] if len(sys.argv) > 1 else "bench/results/fusion/gpu/log.txt").read()
out = sys.argv[2] if len(sys.argv) > 2 else "bench/results/fusion/gpu"
problem = json.load(open(f"{stencil}/problem.json"))
kernels = {k["name"]: k for k in problem["kernels"]}
# variant -> (plan launchopt followed, report with the code generation path)
variants = {
    "dycore.fused": ("gpu-plan.out.json", "gpu-report.txt"),
    "dycore.fused.gmem": ("gpu-plan.out.json", None),
    "dycore.halo": ("halo-plan.out.json", "halo-report.txt"),
    "dycore.halo.gmem": ("halo-plan.out.json", None),
    "dycore.search": ("search-plan.out.json", "search-report.txt"),
    "dycore.search.tiles": ("search-plan.out.json", "search-tiles-report.txt"),
}

def launch_times(section):
    if f"-- per-launch times: {section}\n" not in log:
        return None
    block = log.split(f"-- per-launch times: {section}\n")[1].split("\n--")[0].split("\n==")[0]
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"launch \d+ (\S+): ([\d.]+) ms", block)}

def memory_ops(members):
    first, written = {}, set()
    for name in members:
        for use in kernels[name]["uses"]:
            first.setdefault(use["array"], use["access"] != "write")
            if use["access"] != "read":
                written.add(use["array"])
    return sum(first.values()) + len(written)

def paths(report):
    if not report:
        return {}
    text = open(f"{stencil}/{report}").read()
    return {int(m.group(1)): m.group(2) for m in re.finditer(r"launch (\d+) code generation: (.*)", text)}

original = launch_times("dycore.timed")
rows = [["variant", "new_kernel", "members", "path", "ld_st_original", "ld_st_fused",
         "measured_original_sum_ms", "measured_ms", "projected_ms", "fusion_efficiency"]]
print(f"{'variant':18} {'new kernel':52} {'LD+ST':>9} {'orig ms':>8} {'fused ms':>8} {'proj ms':>8} {'FE':>6}  path")
for variant, (plan_file, report) in variants.items():
    fused = launch_times(variant)
    if fused is None:
        continue
    plan = json.load(open(f"{stencil}/{plan_file}"))
    path = paths(report)
    for index, nk in enumerate(plan["new_kernels"]):
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
        where = path.get(index, "global memory")
        rows.append([variant, name, len(members), where, ops_orig, ops_fused, f"{t_orig:.4f}",
                     f"{t_fused:.4f}", f"{proj:.4f}", f"{fe:.3f}"])
        print(f"{variant:18} {name:52} {ops_orig:>4}->{ops_fused:<4} {t_orig:8.4f} {t_fused:8.4f} {proj:8.4f} {fe:6.1%}  {where}")
steps = re.findall(r"-- (original|dycore\.[a-z.]+) \(round \d\)\n(?:compare: .*\n)?step: median ([\d.]+) ms", log)
med = {}
for v, t in steps:
    med.setdefault(v, []).append(float(t))
o = min(med["original"])
for v in variants:
    if v in med:
        print(f"step speedup {v}: {o / min(med[v]):.2f}x ({o:.4f} ms -> {min(med[v]):.4f} ms)")
with open(f"{out}/efficiency.csv", "w", newline="") as f:
    csv.writer(f).writerows(rows)
