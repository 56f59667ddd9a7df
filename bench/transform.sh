#!/bin/bash
# Regenerates launchopt's outputs for every app's naive CDP file:
#   apps/<app>/generated/<app>_cdp.<V>.cu  and  <app>_cdp.<V>.report.txt
# V = T, C, A-warp, A-block, A-multiblock (multiblock:8), A-grid, and
# TCA-warp, TCA-block, TCA-multiblock, TCA-grid (threshold + coarsen +
# aggregate at that granularity; bench/tune sweeps these), A-threads and
# TCA-threads (--aggregate=threads: grid granularity, child threads packed
# densely where the child's threads are independent), A-host and TCA-host
# (--aggregate=host: grid granularity, the aggregated grid launched by the host
# after the parent; "no device-side launch left" in the report: built without
# -rdc), TCA-host-or-device (the host aggregates large parent grids, a small one
# aggregates at multi-block granularity on the device; built with -rdc), R-T3,
# R-T4, R-T1, R-T2 and R-auto (launch removal; an output whose report says "builds as plain CUDA"
# is built without -rdc, "plain" in variants.txt), S (--spawn) and S-TCA (--threshold
# --spawn --coarsen --aggregate=block) and auto (--auto: per launch site the
# choice of the cost model, untuned; every app, the promotion apps too). The suite's "TCA"
# line in variants.txt names one of the TCA-* files. The promotion apps
# (single-block kernels relaunching themselves: sc, los, pt, unq, pd, upd) get P, PA, PO and
# PAO (--promote, --promote=PA:32, --promote=PO, --promote=PAO:32) instead.
#
#   bench/transform.sh [launchopt]      (default: $LAUNCHOPT, then build/ of this checkout)
#
# The GPU machine has nvcc but no Clang, so the outputs are committed: they are
# the harness's inputs there. A site the tool does not transform stays as
# written; its reason is in the report (counts per app and variant: apps/GENERATED.txt).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$bench/.." && pwd)
launchopt=${1:-${LAUNCHOPT:-$root/build/tools/launchopt/launchopt}}
[ -x "$launchopt" ] || { echo "launchopt not found at $launchopt (pass its path)" >&2; exit 2; }
variants=(T:--threshold C:--coarsen
          A-warp:--aggregate=warp A-block:--aggregate=block
          A-multiblock:--aggregate=multiblock:8 A-grid:--aggregate=grid
          TCA-warp:--threshold,--coarsen,--aggregate=warp TCA-block:--threshold,--coarsen,--aggregate=block
          TCA-multiblock:--threshold,--coarsen,--aggregate=multiblock:8
          TCA-grid:--threshold,--coarsen,--aggregate=grid
          A-threads:--aggregate=threads TCA-threads:--threshold,--coarsen,--aggregate=threads
          A-host:--aggregate=host TCA-host:--threshold,--coarsen,--aggregate=host
          TCA-host-or-device:--threshold,--coarsen,--aggregate=host-or-device
          R-T3:--remove-launches=T3 R-T4:--remove-launches=T4 R-T1:--remove-launches=T1
          R-T2:--remove-launches=T2 R-auto:--remove-launches=auto
          S:--spawn S-TCA:--threshold,--spawn,--coarsen,--aggregate=block auto:--auto)
promotion_apps=" sc los pt unq pd upd "
promotion_variants=(P:--promote PA:--promote=PA:32 PO:--promote=PO PAO:--promote=PAO:32 auto:--auto)
cd "$bench"
summary=()
for dir in apps/*/; do
  app=$(basename "$dir")
  src=apps/$app/${app}_cdp.cu
  [ -f "$src" ] || continue
  out=apps/$app/generated
  mkdir -p "$out"
  app_variants=("${variants[@]}")
  [[ "$promotion_apps" == *" $app "* ]] && app_variants=("${promotion_variants[@]}")
  for v in "${app_variants[@]}"; do
    name=${v%%:*} flags=${v#*:}
    rep=$out/${app}_cdp.$name.report.txt
    # Paths in the report stay relative to bench/ (run from here).
    "$launchopt" ${flags//,/ } "$src" -o "$out/${app}_cdp.$name.cu" --report="$rep" --quiet -- -Icommon
    applied=$(grep -c ': applied' "$rep" || true)
    refused=$(grep ': not applied' "$rep" | grep -vc 'host-side launch' || true)
    line="$app $name: $applied applied, $refused device-side site(s) not applied"
    echo "$line"
    summary+=("$line")
    grep ': not applied' "$rep" | grep -v 'host-side launch' | sed 's/^/    /' || true
  done
done
{
  echo "# bench/transform.sh with $("$launchopt" --version 2>/dev/null | head -1 || echo launchopt)"
  echo "# per app and variant: pass results applied / device-side launch sites not applied (host-side"
  echo "# launches are never candidates); reasons in apps/<app>/generated/<app>_cdp.<V>.report.txt"
  printf '%s\n' "${summary[@]}"
} > "$bench/apps/GENERATED.txt"
