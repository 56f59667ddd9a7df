#!/usr/bin/env bash
# launchopt-dpgen without a GPU or nvcc: the same seed gives the same file, other
# seeds other programs, every program stays within its launch budget, and the
# reducer shrinks a program to what keeps a synthetic failure: launchopt refusing
# to aggregate a tail launch.
#   test/random/generator_test.sh <launchopt-dpgen> <launchopt> <work dir>
set -euo pipefail
dpgen=$1 launchopt=$2 dir=$3
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "generator_test: FAILED: $*"; exit 1; }

"$dpgen" --seed=5 --count=3 -o "$dir/a.cu"
"$dpgen" --seed=5 --count=3 -o "$dir/b.cu"
cmp -s "$dir/a.cu" "$dir/b.cu" || fail "seed 5 gave two different files"
"$dpgen" --seed=6 --count=3 -o "$dir/c.cu"
! cmp -s "$dir/a.cu" "$dir/c.cu" || fail "seeds 5 and 6 gave the same file"
[ "$(grep -c '^static void p[0-9]*_run' "$dir/a.cu")" -eq 3 ] || fail "--count=3 did not give 3 programs"
"$dpgen" --stats --seed=1 --count=200 >"$dir/stats.txt"
awk '$8 > 2048 { print "program " $2 " may make " $8 " launches"; bad = 1 } END { exit bad }' "$dir/stats.txt" ||
  fail "a program exceeds the device's default pending-launch limit"
for feature in launch buffer-launch warp-reduce warp-broadcast shared-exchange loop recursive-kernel \
               template-kernel bounded-kernel stream-tail stream-fire-and-forget stream-created stream-per-thread; do
  grep -q " $feature [1-9]" "$dir/stats.txt" || fail "no program of 200 has $feature"
done

# The synthetic failure: aggregation refuses a tail-launched child.
cat >"$dir/refuses-tail.sh" <<TEST
#!/usr/bin/env bash
"$launchopt" --aggregate=grid --quiet --report=- "\$1" -o /dev/null | grep -q 'not applied: the child is tail-launched'
TEST
chmod +x "$dir/refuses-tail.sh"
"$dpgen" --seed=7 -o "$dir/seed7.cu"
"$dir/refuses-tail.sh" "$dir/seed7.cu" || fail "program 7 no longer has a tail launch to reduce"
"$dpgen" --reduce --seed=7 --test="$dir/refuses-tail.sh" -o "$dir/reduced.cu"
"$dir/refuses-tail.sh" "$dir/reduced.cu" || fail "the reduced program lost the failure"
before=$(grep -c '<<<' "$dir/seed7.cu") after=$(grep -c '<<<' "$dir/reduced.cu")
echo "program 7: $before launches, reduced to $after"
# What is left: the host launch of the top kernel, the chain down to the parent of
# the tail launch, and that launch (with its collector when it is a buffer launch).
[ "$(grep -c 'cudaStreamTailLaunch>>>' "$dir/reduced.cu")" -ge 1 ] || fail "no tail launch left"
[ "$after" -lt "$before" ] || fail "nothing was removed"
# Tests run side by side reach the same program, with no candidate file left.
"$dpgen" --reduce --seed=7 --test="$dir/refuses-tail.sh" --jobs=4 -o "$dir/reduced-jobs4.cu"
cmp -s "$dir/reduced.cu" "$dir/reduced-jobs4.cu" || fail "--jobs=4 reduced to another program"
ls "$dir"/reduced-jobs4.cu.candidate* >/dev/null 2>&1 && fail "--jobs=4 left candidate files"
if "$dpgen" --reduce --seed=7 --test=false -o "$dir/none.cu" 2>/dev/null; then
  fail "a program that does not fail was reduced"
fi
echo "generator_test: passed"
