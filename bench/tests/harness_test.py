#!/usr/bin/env python3
"""Unit tests of bench/harness's variant selection (no GPU, no nvcc)."""
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import unittest

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness")
loader = importlib.machinery.SourceFileLoader("harness", HARNESS)
spec = importlib.util.spec_from_loader("harness", loader)
harness = importlib.util.module_from_spec(spec)
loader.exec_module(harness)


def variant(app, name, data=None):
    return {"app": app, "variant": name + (f"@{data}" if data else ""), "name": name, "dataset": data,
            "src": "x.cu", "cdp": True, "defines": []}


class VariantsFor(unittest.TestCase):
    VARIANTS = [variant("bfs", "cdp"), variant("bfs", "TCA-ds"), variant("bfs", "TCA-ds", "rmat12"),
                variant("bfs", "flat"), variant("sssp", "cdp"), variant("sssp", "TCA-ds", "rmat12")]

    def names(self, app, dataset):
        return [(v["name"], v["dataset"]) for v in harness.variants_for(self.VARIANTS, app, dataset)]

    def test_data_set_line_replaces_the_plain_one(self):
        self.assertEqual(self.names("bfs", "rmat12"), [("cdp", None), ("TCA-ds", "rmat12"), ("flat", None)])

    def test_plain_line_runs_elsewhere(self):
        self.assertEqual(self.names("bfs", "kron20"), [("cdp", None), ("TCA-ds", None), ("flat", None)])

    def test_no_line_for_a_data_set_means_not_run(self):
        self.assertEqual(self.names("sssp", "kron20"), [("cdp", None)])

    def test_generated_inputs_take_plain_lines_only(self):
        self.assertEqual(self.names("bfs", None), [("cdp", None), ("TCA-ds", None), ("flat", None)])

    def test_committed_variants_parse(self):
        rows = harness.read_variants()
        self.assertTrue(any(v["name"] == "cdp" for v in rows))
        for v in rows:
            self.assertTrue(v["dataset"] is None or v["dataset"] in harness.DATASETS, v["variant"])


class Counters(unittest.TestCase):
    def test_the_last_table_is_kept(self):
        out = ["# level 0", harness.COUNTERS_HEADER, "1,a.cu:36,1,0,0,64",
               "RESULT,bfs,kron20,S,OK,1,24.1,24.1,24.1,", harness.COUNTERS_HEADER,
               "1,a.cu:36,774,645605,0,31397420", "2,b.cu:9,3,4,5,6", "not a row"]
        self.assertEqual(harness.last_counter_table(out),
                         [["1", "a.cu:36", "774", "645605", "0", "31397420"],
                          ["2", "b.cu:9", "3", "4", "5", "6"]])

    def test_no_table_no_rows(self):
        self.assertEqual(harness.last_counter_table(["RESULT,bfs,kron20,S,OK,1,1,1,1,", "1,2,3,4,5,6"]), [])


class DataSetNames(unittest.TestCase):
    def test_each_size_of_a_generated_input_is_its_own_data_set(self):
        sizes = [harness.argument_label(extra) for _, extra in harness.SUITES["full"]["sc"]]
        self.assertEqual(sizes, ["steps2", "steps25", "steps1000", "steps10000"])

    def test_no_arguments_is_the_default_data_set(self):
        self.assertEqual(harness.argument_label([]), "default")


class VariantList(unittest.TestCase):
    def write(self, text):
        import tempfile
        f = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_another_list_than_variants_txt(self):
        rows = harness.read_variants(path=self.write("bfs flat apps/bfs/bfs_flat.cu plain\n"
                                                     "bfs TCA-ds@rmat12 x.cu cdp -DLAUNCHOPT_THRESHOLD=1\n"))
        self.assertEqual([(v["name"], v["dataset"]) for v in rows], [("flat", None), ("TCA-ds", "rmat12")])

    def test_unknown_data_set_is_an_error(self):
        with self.assertRaises(SystemExit):
            harness.read_variants(path=self.write("bfs TCA-ds@nowhere x.cu cdp\n"))


class DataCommand(unittest.TestCase):
    def test_prints_the_path_of_a_file_data_set(self):
        out = subprocess.run([sys.executable, HARNESS, "data", "rmat12"], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertTrue(out.stdout.strip().endswith(os.path.join("data", "rmat12.sym.gr")), out.stdout)

    def test_a_generated_data_set_without_a_build_is_a_clear_error(self):
        out = subprocess.run([sys.executable, HARNESS, "data", "kron14", "--build-dir", "/nonexistent"],
                             capture_output=True, text=True)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("run `bench/harness build` first", out.stderr)
        self.assertNotIn("Traceback", out.stderr)


if __name__ == "__main__":
    unittest.main()
