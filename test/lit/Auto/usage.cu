// --auto chooses the passes itself; --launch-costs needs --auto; a launch
// cost file without a constant the model reads is an input error.
// RUN: not %launchopt --auto --threshold %s 2>&1 | %FileCheck %s --check-prefix=WITH-PASS
// WITH-PASS: --auto chooses the passes itself
// RUN: not %launchopt --launch-costs=x.json --threshold %s 2>&1 | %FileCheck %s --check-prefix=COSTS
// COSTS: --launch-costs goes with --auto
// RUN: mkdir -p %t.d && cp %S/../../../lib/Transforms/Fusion/gpus/h100.json %t.d/h100.json
// RUN: printf '{"extends": "h100.json", "constants": {"device_launch_issue_us": {"value": 6.5, "source": "measured"}}}' > %t.d/costs.json
// RUN: not %launchopt --auto --launch-costs=%t.d/costs.json %s 2>&1 | %FileCheck %s --check-prefix=MISSING
// MISSING: constant 'device_launch_issue_faf_us' is missing
__global__ void k() {}
