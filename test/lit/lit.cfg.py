# Golden tests: each .cu has RUN lines; FileCheck checks the output.
# The build writes the tool paths into a small site file that is passed with
# `--param site=<file>` (ctest does this for every test).
import os
import lit.formats

site = lit_config.params.get("site")
if not site:
    lit_config.fatal("run through ctest, or pass --param site=<build>/test/lit.site.cfg.py")
values = {}
with open(site) as f:
    exec(f.read(), values)

config.name = "launchopt"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
# ctest runs one lit process per test, in parallel: each gets its own exec
# root so that lit's per-suite bookkeeping file is never shared.
config.test_exec_root = os.path.join(values["build_dir"], "test", "lit",
                                     lit_config.params.get("exec_dir", "all"))

tools = values["llvm_tools_dir"]
# The longer name first: %launchopt is a prefix of it.
config.substitutions.append(("%launchopt-tune", values["launchopt_tune"]))
config.substitutions.append(("%launchopt", values["launchopt"]))
config.substitutions.append(("%FileCheck", os.path.join(tools, "FileCheck")))
config.substitutions.append(("%not", os.path.join(tools, "not")))
nvcc = os.path.join(values["cuda_path"], "bin", "nvcc")
# The sanitizer run (scripts/sanitize-check.sh) checks launchopt itself; the
# outputs' nvcc compiles are the plain lit run's, so it sets this to skip them.
skip_nvcc = os.environ.get("LAUNCHOPT_LIT_SKIP_NVCC") == "1"
if os.path.exists(nvcc) and not skip_nvcc:
    config.available_features.add("nvcc")
    # Every transformed output must compile for Hopper with dynamic parallelism.
    config.substitutions.append(
        ("%nvcc-compile", nvcc + " -arch=sm_90 -rdc=true -std=c++17 -c -o /dev/null"))
    # An output with no device-side launch left compiles without relocatable
    # device code (ptxas rejects a device runtime call there).
    config.substitutions.append(
        ("%nvcc-plain-compile", nvcc + " -arch=sm_90 -std=c++17 -c -o /dev/null"))
    # ... and links into a program without the device runtime.
    config.substitutions.append(
        ("%nvcc-plain-link", nvcc + " -arch=sm_90 -std=c++17"))
    # The outputs of a program of several files must link together.
    config.substitutions.append(
        ("%nvcc-link", nvcc + " -arch=sm_90 -rdc=true -std=c++17 -lcudadevrt"))
else:
    if not skip_nvcc:
        lit_config.warning("nvcc not found under %s: compile checks are skipped" % values["cuda_path"])
    config.substitutions.append(("%nvcc-compile", "true"))
    config.substitutions.append(("%nvcc-plain-compile", "true"))
    config.substitutions.append(("%nvcc-plain-link", "true"))
    config.substitutions.append(("%nvcc-link", "true"))
