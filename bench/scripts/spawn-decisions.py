#!/usr/bin/env python3
"""The spawn controller's decisions per BFS level, from a counters log.

The log is the output of a BFS spawn output built with -DLAUNCHOPT_COUNTERS
-DBFS_LEVEL_COUNTERS: after each level, a line `# level L next-frontier F`
and the counters' CSV (site,file:line,launched,serialized,deferred,threads),
cumulative since the program started. The first run of the log (levels from
0 until the level number falls back) is taken; each level's children are the
difference from the level before, summed over the sites.

    spawn-decisions.py LOG OUT_PREFIX [TITLE]

writes OUT_PREFIX.csv (level,next_frontier,launched,serialized,deferred,threads)
and, where matplotlib is installed, OUT_PREFIX.png.
"""
import csv
import sys


def read_levels(path):
    levels = []  # (level, next frontier, {site: (launched, serialized, deferred, threads)})
    current = None
    with open(path) as log:
        for line in log:
            line = line.strip()
            if line.startswith("# level "):
                words = line.split()
                level, frontier = int(words[2]), int(words[4])
                if levels and level <= levels[-1][0]:
                    break  # the next run starts
                current = (level, frontier, {})
                levels.append(current)
            elif current is not None and line and line[0].isdigit() and line.count(",") == 5:
                site, _, launched, serialized, deferred, threads = line.split(",")
                current[2][site] = tuple(int(x) for x in (launched, serialized, deferred, threads))
    return levels


def per_level(levels):
    rows, before = [], (0, 0, 0, 0)
    for level, frontier, sites in levels:
        total = tuple(sum(counts[i] for counts in sites.values()) for i in range(4))
        rows.append((level, frontier) + tuple(t - b for t, b in zip(total, before)))
        before = total
    return rows


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    rows = per_level(read_levels(sys.argv[1]))
    if not rows:
        sys.exit(f"spawn-decisions: no '# level' lines with counters in {sys.argv[1]}")
    prefix = sys.argv[2]
    with open(prefix + ".csv", "w", newline="") as out:
        w = csv.writer(out)
        w.writerow(["level", "next_frontier", "launched", "serialized", "deferred", "threads"])
        w.writerows(rows)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"wrote {prefix}.csv (no matplotlib: no figure)")
        return
    levels = [r[0] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.4
    ax.bar([x - width / 2 for x in levels], [r[2] for r in rows], width, label="launched",
           color="#1f77b4")
    ax.bar([x + width / 2 for x in levels], [r[3] for r in rows], width, label="serialized",
           color="#ff7f0e")
    if any(r[4] for r in rows):
        ax.plot(levels, [r[4] for r in rows], "k^", label="deferred")
    ax.set_yscale("symlog", linthresh=1)
    ax.set_xticks(levels)
    ax.set_xlabel("BFS level (host iteration, in time order)")
    ax.set_ylabel("children at the level's launch sites")
    ax.set_title(sys.argv[3] if len(sys.argv) == 4 else "spawn controller decisions per level")
    ax.legend()
    fig.tight_layout()
    fig.savefig(prefix + ".png", dpi=120)
    print(f"wrote {prefix}.csv and {prefix}.png")


if __name__ == "__main__":
    main()
