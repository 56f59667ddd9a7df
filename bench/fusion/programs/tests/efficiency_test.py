#!/usr/bin/env python3
"""efficiency.py on a made-up program: a kernel launched twice (members matched
in launch order), a singleton left out, bytes from the program's array lines."""
import csv, json, os, shutil, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
work = tempfile.mkdtemp()
try:
    shutil.copy(f"{here}/../efficiency.py", work)
    os.mkdir(f"{work}/toy")
    open(f"{work}/toy/toy.cu", "w").close()
    launch = {"blocks": 4096, "block": [256, 1, 1]}
    json.dump({"arrays": [{"name": n, "element_bytes": 4} for n in "abcs"], "kernels": [
        dict(launch, name="k1", uses=[{"array": "a", "access": "read"}, {"array": "b", "access": "write"}]),
        dict(launch, name="k2", uses=[{"array": "b", "access": "read"}, {"array": "c", "access": "write"}]),
        dict(launch, name="k1", uses=[{"array": "c", "access": "read"}, {"array": "s", "access": "write"}]),
    ]}, open(f"{work}/toy/problem.json", "w"))
    json.dump({"new_kernels": [{"members": ["k1"]}, {"members": ["k2", "k1"]}]},
              open(f"{work}/toy/plan.json", "w"))
    open(f"{work}/log.txt", "w").write("""== toy
-- toy (round 1)
array a 1048576 4
array b 1048576 4
array c 2097152 4
RESULT program=toy binary=toy size=1 steps=3 seed=1 step_ms=1.0000 step_min_ms=0.9 cpu=PASS
-- toy.fused (round 1)
RESULT program=toy binary=toy.fused size=1 steps=3 seed=1 step_ms=0.8000 step_min_ms=0.7 cpu=PASS
-- toy (round 2)
RESULT program=toy binary=toy size=1 steps=3 seed=1 step_ms=0.9000 step_min_ms=0.9 cpu=PASS
-- per-launch times: toy.fused
launch 0 k1: 0.0030 ms
launch 1 k2+k1: 0.0050 ms
-- per-launch times: toy.timed
launch 0 k1: 0.0010 ms
launch 1 k2: 0.0030 ms
launch 2 k1: 0.0030 ms
""")
    text = subprocess.run([sys.executable, f"{work}/efficiency.py", f"{work}/log.txt", work],
                          capture_output=True, text=True, check=True).stdout
    assert "speedup 1.12x" in text, text
    rows = list(csv.DictReader(open(f"{work}/efficiency.csv")))
    assert len(rows) == 1, rows
    row = rows[0]
    # k2+k1 (the second k1): loads b; stores c, s (c is written before it is
    # read): 3 operations of 4, in 5 us against 3 + 3 us: efficiency 0.75 / (5 / 6).
    # Bytes: b 4 MiB + c 8 MiB + s (not printed: 4096 * 256 threads of 4 bytes).
    assert row["new_kernel"] == "k2+k1" and row["ld_st_original"] == "4" and row["ld_st_fused"] == "3", row
    assert abs(float(row["original_ms"]) - 0.006) < 1e-9 and row["fusion_efficiency"] == "0.900", row
    assert int(row["bytes"]) == (1 + 2 + 1) * 4 * 1048576, row
    print("efficiency.py: PASS")
finally:
    shutil.rmtree(work)
