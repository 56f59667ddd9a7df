#!/usr/bin/env python3
"""Unit tests of bench/targets on a small results table (no GPU)."""
import os
import subprocess
import sys
import tempfile
import unittest

TARGETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "targets")
HEADER = "app,dataset,variant,status,reps,median_ms,min_ms,max_ms,speedup_vs_cdp,wall_s,note\n"


def row(app, data, variant, ms, status="OK"):
    return f"{app},{data},{variant},{status},10,{ms},{ms},{ms},,0.1,\n"


class Targets(unittest.TestCase):
    def run_targets(self, rows, *flags):
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            f.write(HEADER + "".join(rows))
        try:
            out = subprocess.run([sys.executable, TARGETS, f.name, *flags], capture_output=True,
                                 text=True, check=True).stdout
        finally:
            os.unlink(f.name)
        return out.splitlines()

    ROWS = [row("bfs", "kron20", "cdp", 100), row("bfs", "kron20", "flat", 8),
            row("bfs", "kron20", "A-grid", 4), row("bfs", "kron20", "A-warp", 5),
            row("bfs", "kron20", "TCA-tuned", 2),
            row("bfs", "rmat12", "cdp", 10), row("bfs", "rmat12", "flat", 1), row("bfs", "rmat12", "expert", 0.5),
            row("bfs", "rmat12", "A-grid", 1), row("bfs", "rmat12", "TCA-tuned", 2),
            row("bfs", "rmat12", "TCA-ds", 0.5)]

    def test_one_variant(self):
        out = self.run_targets(self.ROWS)
        self.assertIn("over best A       2x", out[1])
        self.assertIn("over best A     0.5x", out[2])
        self.assertEqual(out[-3], "geometric mean over cdp:    15.8x")  # 50x and 5x
        self.assertEqual(out[-2], "geometric mean over best A: 1x")    # 2x and 0.5x

    def test_first_that_ran_per_pair(self):
        out = self.run_targets(self.ROWS, "--tca", "TCA-ds,TCA-tuned")
        self.assertTrue(out[1].endswith("(TCA-tuned)"), out[1])
        self.assertTrue(out[2].endswith("(TCA-ds)"), out[2])
        self.assertEqual(out[-2], "geometric mean over best A: 2x")    # 2x and 2x

    def test_bound_of_code_without_dynamic_parallelism(self):
        out = self.run_targets(self.ROWS)
        # best A over the fastest of flat and expert: 4/8 and 1/0.5
        self.assertEqual(out[-1], "geometric mean of best A over the fastest of flat and expert: 1x (2 pairs)")

    def test_same_counts_as_cdp(self):
        rows = [row("ms", "img", "cdp", 2), row("ms", "img", "TCA-tuned", 1),
                row("ms", "img", "A-grid", 0, status="SAME")]
        out = self.run_targets(rows)
        self.assertIn("over best A       2x", out[1])


if __name__ == "__main__":
    unittest.main()
