#!/usr/bin/env python3
"""Chart of the fusion GPU run from efficiency.csv: per new kernel, the
original kernels' summed time against the fused kernel (on chip and through
GMEM alone), and projected against measured time of the on-chip kernels.
Needs matplotlib. Usage: chart.py [results folder]"""
import csv, sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

out = sys.argv[1] if len(sys.argv) > 1 else "bench/results/fusion/gpu"
rows = list(csv.DictReader(open(f"{out}/efficiency.csv")))
on_chip = [r for r in rows if not r["variant"].endswith(".gmem")]
gmem = {(r["variant"][: -len(".gmem")], r["new_kernel"]): r for r in rows if r["variant"].endswith(".gmem")}

def label(r):
    plan = "search plan" if r["variant"] == "dycore.fused" else "all-halo plan"
    members = r["new_kernel"].split("+")
    return f"{plan}: " + "+".join(members[:2]) + (f"+{len(members) - 2} more" if len(members) > 2 else "")

fig, (left, right) = plt.subplots(1, 2, figsize=(15, 6), gridspec_kw={"width_ratios": [3, 2]})
x = range(len(on_chip))
w = 0.27
left.bar([i - w for i in x], [float(r["measured_original_sum_ms"]) for r in on_chip], w, label="original kernels (sum)")
left.bar(list(x), [float(gmem[(r["variant"], r["new_kernel"])]["measured_ms"]) if (r["variant"], r["new_kernel"]) in gmem else 0 for r in on_chip], w, label="fused, GMEM path")
left.bar([i + w for i in x], [float(r["measured_ms"]) for r in on_chip], w, label="fused, registers / shared-memory tiles")
for i, r in enumerate(on_chip):
    left.text(i + w, float(r["measured_ms"]), f"FE {float(r['fusion_efficiency']):.0%}", ha="center", va="bottom", fontsize=8)
left.set_xticks(list(x))
left.set_xticklabels([label(r) for r in on_chip], rotation=20, ha="right", fontsize=8)
left.set_ylabel("time per step (ms), H100")
left.set_title("Original vs fused time per new kernel")
left.legend(fontsize=8)

right.bar([i - 0.2 for i in x], [float(r["projected_ms"]) for r in on_chip], 0.4, label="projected (model)")
right.bar([i + 0.2 for i in x], [float(r["measured_ms"]) for r in on_chip], 0.4, label="measured")
right.set_xticks(list(x))
right.set_xticklabels([label(r) for r in on_chip], rotation=20, ha="right", fontsize=8)
right.set_ylabel("ms")
right.set_title("Projected vs measured, on-chip kernels")
right.legend(fontsize=8)
fig.tight_layout()
fig.savefig(f"{out}/fusion.png", dpi=110)
print(f"wrote {out}/fusion.png")
