#!/bin/bash
# GPU machine script: the promotion apps (sc, los, pt, unq, pd, upd) side by side. Builds each
# app's naive CDP version, its iterative host-launched version (flat) and the
# launchopt outputs P, PA, PO, PAO (apps/<app>/generated/, committed; PA and PAO
# also at pool size 1024 through -DLAUNCHOPT_PROMOTE_POOL: PA8, PA128 can be named
# in VARIANTS), then runs every size
# (STEPS, default 2 25 1000 10000 chained steps) in ROUNDS rounds (default 3);
# each round runs the variants in a rotated order, so drift between processes
# falls on all of them. Every run is under `timeout RUN_TIMEOUT` (default 20 s)
# and checks its output against the CPU; its checksum must equal the flat
# version's. A variant that fails or times out in a round is not run again at
# that size.
#   bench/scripts/promotion.sh [OUTDIR]        (default $OUT, else bench/.build/promotion)
# Output: OUTDIR/runs.log (every run's output), OUTDIR/build.log, OUTDIR/summary.txt.
set -uo pipefail
bench=$(cd "$(dirname "$0")/.." && pwd)
OUTDIR=${1:-${OUT:-$bench/.build/promotion}}  # relative to where the script is called from
mkdir -p "$OUTDIR/bin"
OUTDIR=$(cd "$OUTDIR" && pwd)
cd "$bench"
export PATH=/usr/local/cuda/bin:$PATH
NVCC=${NVCC:-nvcc}
ROUNDS=${ROUNDS:-3}
RUN_TIMEOUT=${RUN_TIMEOUT:-20}
STEPS=${STEPS:-"2 25 1000 10000"}
APPS=${APPS:-"sc los pt unq pd upd"}
VARIANTS=${VARIANTS:-"flat cdp P PA PO PAO PA1024 PAO1024"}
nv="$NVCC -std=c++17 -arch=sm_90 -O3 -Icommon"

# name -> source, relocatable device code, extra flags
spec() {
  local app=$1 v=$2
  case $v in
    flat) echo "apps/$app/${app}_flat.cu plain" ;;
    cdp) echo "apps/$app/${app}_cdp.cu cdp" ;;
    P) echo "apps/$app/generated/${app}_cdp.P.cu cdp" ;;
    PA) echo "apps/$app/generated/${app}_cdp.PA.cu cdp" ;;
    PA8) echo "apps/$app/generated/${app}_cdp.PA.cu cdp -DLAUNCHOPT_PROMOTE_POOL=8u" ;;
    PA128) echo "apps/$app/generated/${app}_cdp.PA.cu cdp -DLAUNCHOPT_PROMOTE_POOL=128u" ;;
    PA1024) echo "apps/$app/generated/${app}_cdp.PA.cu cdp -DLAUNCHOPT_PROMOTE_POOL=1024u" ;;
    PO) echo "apps/$app/generated/${app}_cdp.PO.cu cdp" ;;
    PAO) echo "apps/$app/generated/${app}_cdp.PAO.cu cdp" ;;
    PAO1024) echo "apps/$app/generated/${app}_cdp.PAO.cu cdp -DLAUNCHOPT_PROMOTE_POOL=1024u" ;;
  esac
}

build_one() {  # app variant
  local app=$1 v=$2 src kind flags
  read -r src kind flags <<< "$(spec "$app" "$v")"
  local rdc="" lib=""
  [ "$kind" = cdp ] && rdc="-rdc=true" && lib="-lcudadevrt"
  $nv -Iapps/$app $rdc $flags -c "$src" -o "$OUTDIR/bin/${app}_$v.o" &&
    $NVCC -arch=sm_90 $rdc "$OUTDIR/bin/${app}_$v.o" "$OUTDIR/bin/${app}_main.o" $lib \
      -o "$OUTDIR/bin/${app}_$v"
}

{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
  $NVCC --version | tail -1
  for app in $APPS; do $nv -c "apps/$app/${app}_main.cu" -o "$OUTDIR/bin/${app}_main.o" & done
  wait
  for app in $APPS; do
    for v in $VARIANTS; do build_one "$app" "$v" & done
  done
  wait
} > "$OUTDIR/build.log" 2>&1
for app in $APPS; do
  for v in $VARIANTS; do
    [ -x "$OUTDIR/bin/${app}_$v" ] || echo "build of $app $v failed (build.log)"
  done
done

: > "$OUTDIR/runs.log"
declare -A dead
for round in $(seq 1 "$ROUNDS"); do
  for steps in $STEPS; do
    for app in $APPS; do
      vs=($VARIANTS)
      r=$(((round - 1) % ${#vs[@]}))
      order="${vs[*]:r} ${vs[*]:0:r}"
      for v in $order; do
        key="$app/$steps/$v"
        [ -n "${dead[$key]:-}" ] && continue
        exe="$OUTDIR/bin/${app}_$v"
        [ -x "$exe" ] || { dead[$key]=1; continue; }
        out=$(timeout "$RUN_TIMEOUT" "$exe" --steps "$steps" --variant "$v" --reps 3 --warmup 1 2>&1)
        rc=$?
        { echo "### round $round $key rc=$rc"; echo "$out"; } >> "$OUTDIR/runs.log"
        if [ $rc -ne 0 ]; then
          dead[$key]=1
          [ $rc -eq 124 ] && echo "RESULT,$app,steps$steps,$v,TIMEOUT,0,,,,after ${RUN_TIMEOUT} s" >> "$OUTDIR/runs.log"
        fi
        echo "round $round $key rc=$rc $(echo "$out" | grep -E '^RESULT' | cut -d, -f5-9)"
      done
    done
  done
done

python3 - "$OUTDIR/runs.log" <<'EOF' | tee "$OUTDIR/summary.txt"
import re, statistics, sys
runs = {}      # (app, steps, variant) -> list of medians
status = {}    # -> last non-OK status and note
checksum = {}  # -> set of checksums
key = None
for line in open(sys.argv[1]):
    m = re.match(r"### round \d+ (\w+)/(\d+)/(\w+) rc=(\d+)", line)
    if m:
        key = (m[1], int(m[2]), m[3])
        runs.setdefault(key, [])
        if m[4] != "0":
            status.setdefault(key, f"exit {m[4]}")
        continue
    if line.startswith("RESULT,") and key:
        f = line.rstrip("\n").split(",")
        if f[4] == "OK":
            runs[key].append(float(f[6]))
        else:
            status[key] = f[4] + " " + ",".join(f[9:])  # replaces the bare exit code
    m = re.match(r"# checksum \S+ \S+ ([0-9a-f]+)", line)
    if m and key:
        checksum.setdefault(key, set()).add(m[1])
print("median of the rounds' medians (ms); x = time of flat / time of the variant (>1 faster than flat);")
print("checksum: equal to flat's in every run, or DIFFERS; CDP fails = the naive CDP run failed")
print(f"{'app':4} {'steps':>6} {'variant':8} {'status':32} {'ms':>10} {'vs flat':>8} {'vs cdp':>8}  checksum")
for app, steps, v in sorted(runs, key=lambda k: (k[0], k[1], "flat cdp P PA PO PAO PA8 PA128 PA1024 PAO1024".split().index(k[2]))):
    k = (app, steps, v)
    times = runs[k]
    ms = statistics.median(times) if times else None
    flat = runs.get((app, steps, "flat")) or []
    cdp = runs.get((app, steps, "cdp")) or []
    st = status.get(k, "OK" if times else "no result")
    if v == "cdp" and k in status:
        st = "CDP fails: " + st
    vf = f"{statistics.median(flat) / ms:.2f}x" if ms and flat else "-"
    vc = f"{statistics.median(cdp) / ms:.2f}x" if ms and cdp else "-"
    ref = checksum.get((app, steps, "flat"), set())
    mine = checksum.get(k, set())
    cs = "-" if not mine else ("equal" if mine == ref and len(ref) == 1 else "DIFFERS")
    print(f"{app:4} {steps:>6} {v:8} {st[:32]:32} {ms if ms is not None else '-':>10} {vf:>8} {vc:>8}  {cs}")
EOF
