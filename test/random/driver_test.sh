#!/usr/bin/env bash
# run.sh's run step without a GPU: a stand-in nvcc builds "binaries" that print
# the checksum lines of the programs in a source's table, with planted faults (a
# crash, a hang, two hangs in a row, a wrong checksum, a CUDA error, a compile error, a missing
# output); the step must report each once, go on after crashes and hangs, and
# count the rest equal.
#   test/random/driver_test.sh <work dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
rm -rf "$dir"
mkdir -p "$dir/tools" "$dir/d"
fail() { echo "driver_test: FAILED: $*"; exit 1; }

cat >"$dir/tools/nvcc" <<'EOF'
#!/usr/bin/env bash
[ "$1" = --version ] && { echo "stand-in nvcc"; exit 0; }
out= src=
while [ $# -gt 0 ]; do case "$1" in -o) out=$2; shift 2 ;; *.cu) src=$1; shift ;; *) shift ;; esac; done
grep -q PLANTED_COMPILE_ERROR "$src" && { echo "error: planted"; exit 1; }
seeds=$(grep -o '^    {[0-9]*ull' "$src" | grep -o '[0-9]*' | tr '\n' ' ')
cat >"$out" <<SCRIPT
#!/usr/bin/env bash
seeds=($seeds)
for ((i = \$1; i <= \$2 && i < \${#seeds[@]}; i++)); do
  s=\${seeds[\$i]} sum=\$((\${seeds[\$i]} * 7919))
  case "$(basename "$src" .cu):\$i" in
    *.C:1) exit 139 ;;
    *.T:2) sleep 30 ;;
    *.A-block:2 | *.A-block:3) sleep 30 ;;
    *.A-grid:3) sum=1 ;;
    *.A-warp:0) echo "program \$i seed \$s error an illegal memory access"; exit 1 ;;
  esac
  echo "program \$i seed \$s checksum \$sum launch_errors 0"
done
SCRIPT
chmod +x "$out"
EOF
printf '#!/bin/sh\necho "GPU 0: stand-in"\n' >"$dir/tools/nvidia-smi"
chmod +x "$dir/tools/"*
for b in 0 1; do
  for s in 1 2 3 4 5; do echo "    {$((b * 5 + s))ull, p_run},"; done >"$dir/d/b00$b.cu"
  for v in T C A-warp A-block A-multiblock A-grid TCA A-threads TCA-threads A-host TCA-host R-T3 R-T4 R-T1 R-T2 R-auto S S-TCA auto; do cp "$dir/d/b00$b.cu" "$dir/d/b00$b.$v.cu"; done
done
echo PLANTED_COMPILE_ERROR >>"$dir/d/b001.TCA.cu"
rm "$dir/d/b001.A-block.cu"

mkdir -p "$dir/calls"
if OUT="$dir/calls" PATH="$dir/tools:$PATH" NVCC="$dir/tools/nvcc" RUN_TIMEOUT=2 JOBS=2 "$here/run.sh" run "$dir/d" >"$dir/out.txt" 2>&1; then
  fail "planted faults, yet the run step passed"
fi
log="$dir/d/run.log"
expect() { grep -q -- "$1" "$log" || fail "run.log lacks: $1"; }
expect "COMPILE FAILED: b001.TCA"
expect "FAILURE seed 2 C: FAILED: crashed: exit 139, original 15838"
expect "FAILURE seed 3 T: FAILED: crashed: timeout after 2 s, original 23757"
expect "FAILURE seed 4 A-grid: 1, original 31676"
expect "FAILURE seed 1 A-warp: FAILED: error an illegal memory access, original 7919"
expect "FAILURE seed 7 C: FAILED: crashed: exit 139"   # the second file: the run went on
expect "FAILURE seed 6 A-block: FAILED to transform or build"
# Two hangs in a row: the process restarted after the first hangs before it
# prints, and the second program is the one named (not the first again).
expect "FAILURE seed 3 A-block: FAILED: crashed: timeout after 2 s, original 23757"
expect "FAILURE seed 4 A-block: FAILED: crashed: timeout after 2 s, original 31676"
expect "MISMATCH seed 4 A-grid: launchopt: original 31676 at -O0 and -O3, variant 1"
expect "executions: 190 (program x build run, original included), equal: 170, failures: 20, inconclusive: 0"
[ "$(grep -c '^FAILURE' "$log")" -eq 20 ] || fail "expected 20 failures"
# With OUT set, each crash and hang is named there as it happens.
grep -q '^b000.T program 2: timeout after 2 s$' "$dir/calls/crashes.txt" || fail "crashes.txt lacks the hang"
grep -q '^b000.C program 1: exit 139$' "$dir/calls/crashes.txt" || fail "crashes.txt lacks the crash"
# Each program's time is kept beside its result; the hang restarts the process.
times="$dir/d/results/b000.T.txt.times"
[ "$(grep -c ' start ' "$times")" -eq 2 ] || fail "$times lacks the two process starts"
[ "$(grep -c ' program ' "$times")" -eq 4 ] || fail "$times lacks a time per program (4 of 5 end)"
# A second run keeps the results that reached the last program: only the
# files whose last program failed run again.
echo "marker" >>"$times"
PATH="$dir/tools:$PATH" NVCC="$dir/tools/nvcc" RUN_TIMEOUT=2 JOBS=2 "$here/run.sh" run "$dir/d" >/dev/null 2>&1 || true
grep -q '^marker$' "$times" || fail "a complete result was run again"
echo "driver_test: passed"
