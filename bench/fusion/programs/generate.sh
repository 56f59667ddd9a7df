#!/bin/sh
# Runs launchopt fuse --function=main on every program of the corpus (here;
# the GPU machine only compiles and runs the results). Per program, in its
# folder:
#   <prog>.fused.cu   the search's plan, with per-launch timing hooks
#   <prog>.timed.cu   no fusion (--search=none), timing hooks only: the
#                     original's per-launch times for the fusion efficiency
#   diffusion2d.whole.cu  both kernels fused whatever the projection says
#   diffusion2d.tiles.cu  the search's plan with tiles, not recomputation
#   plan.json, report.txt, problem.json   what the search decided and saw
#   fuse.log          everything launchopt printed, and its exit status
# A run that fails or changes nothing leaves no source behind (a stale one
# is removed), and the script goes on with the next program: the log says
# why. Usage: bench/fusion/programs/generate.sh [launchopt]
set -u
L=$(realpath "${1:-build/tools/launchopt/launchopt}")
cd "$(dirname "$0")"
RES=""
[ -x /usr/local/cuda/bin/nvcc ] && RES=--nvcc-resources
PROGRAMS=${PROGRAMS:-"diffusion2d euler_mesh heat3d mlp"}
T=$(mktemp -d)
# fuse NAME ARGS...: one launchopt run writing $T/NAME.cu; kept as
# <prog>.NAME.cu when launchopt succeeds and the source changed.
fuse() {
  name=$1
  shift
  echo "\$ launchopt fuse $p.cu --function=main $*" >> fuse.log
  timeout 600 "$L" fuse "$p.cu" --function=main -o "$T/$name.cu" "$@" -- -I. >> fuse.log 2>&1
  status=$?
  echo "exit status $status" >> fuse.log
  rm -f "$p.$name.cu"
  if [ $status -ne 0 ]; then
    echo "$p: launchopt fuse ($name) failed with exit status $status (see $p/fuse.log)"
  elif cmp -s "$p.cu" "$T/$name.cu"; then
    echo "$p: launchopt fuse ($name) changed nothing" | tee -a fuse.log
  else
    mv "$T/$name.cu" "$p.$name.cu"
    echo "$p: wrote $p/$p.$name.cu"
  fi
  rm -f "$T/$name.cu"
}
for p in $PROGRAMS; do
  (
    cd "$p" || exit 1
    : > fuse.log
    rm -f plan.json report.txt problem.json
    # The problem at the size the driver runs where it matters to a remark:
    # heat3d's default block, 512 x 512 x 64 cells, a thread each (the
    # temporal projection's times are then the measured run's).
    sites=""
    [ "$p" = heat3d ] && sites=--sites=16777216
    # Renaming on: an array updated in place while a fused kernel still
    # reads it at neighbours (diffusion2d's J) gets a copy of its old values.
    fuse fused --plan=plan.json --report=report.txt --write-problem=problem.json --timing-hooks \
      --rename-expandable $RES $sites
    fuse timed --search=none --timing-hooks --quiet
    # diffusion2d's two kernels fused into one whatever the projection says
    # (whole-plan.json), so that the GPU run measures the plan it declines.
    [ "$p" = diffusion2d ] &&
      fuse whole --use-plan=whole-plan.json --rename-expandable --timing-hooks --quiet
    # ... and with shared-memory tiles instead of recomputing the producer at
    # the two neighbours read (the projection prefers recomputation).
    [ "$p" = diffusion2d ] &&
      fuse tiles --rename-expandable --recompute-neighbours=0 --timing-hooks --quiet
    # heat3d fused over time where the projection refuses it, so that the
    # GPU run measures what calibrates it: 2 steps recomputed in registers,
    # 2 and 3 steps in shared-memory tiles.
    if [ "$p" = heat3d ]; then
      fuse temporal2 --temporal-steps=2 --timing-hooks --quiet
      fuse tiles2 --temporal-tiles --temporal-steps=2 --timing-hooks --quiet
      fuse tiles3 --temporal-tiles --temporal-steps=3 --timing-hooks --quiet
    fi
    # The search's wall-clock time differs on every run; the log keeps the rest.
    sed -i -E 's/ projected, [0-9.]+ s$/ projected/; s/^(exact search: .*), [0-9.]+ s$/\1/' fuse.log
  )
done
rm -rf "$T"
exit 0
