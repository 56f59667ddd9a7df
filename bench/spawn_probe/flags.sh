#!/bin/bash
# Prints a launch-control GPU description (lib/Transforms/Fusion/gpus/
# *.launch-control.json, or the probe's output) as nvcc -D flags for the
# spawn controller and the deferral runtime.
#   bench/spawn_probe/flags.sh [description]   (default: the H100's)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
file=${1:-$here/../../lib/Transforms/Fusion/gpus/h100.launch-control.json}
python3 -c '
import json, sys
for key, entry in json.load(open(sys.argv[1])).items():
    if isinstance(entry, dict):
        print("-D%s=%d" % (entry["flag"], entry["value"]))
' "$file"
