#!/bin/sh
# Stands in for nvcc: fake-build.sh SRC EXE -DLAUNCHOPT_THRESHOLD=T -DLAUNCHOPT_CFACTOR=C
# writes EXE, a script that prints time_ms made from the configuration:
# granularity (multiblock8 10, block 20, grid 30, warp 40) plus one per
# power of two the threshold is away from 128 and the factor from 8, so the
# configuration the model starts from for Inputs/parent.cu is the best.
src=$1 exe=$2
shift 2
t=256 c=4
for d; do
  case $d in
    -DLAUNCHOPT_THRESHOLD=*) t=${d#*=} ;;
    -DLAUNCHOPT_CFACTOR=*) c=${d#*=} ;;
  esac
done
grep -q 'LAUNCHOPT_THRESHOLD' "$src" || { echo "not a transformed file: $src" >&2; exit 1; }
case $src in
  *.multiblock8.cu) g=10 ;;
  *.block.cu) g=20 ;;
  *.grid.cu) g=30 ;;
  *) g=40 ;;
esac
distance() { d=0 v=$1; while [ "$v" -lt "$2" ]; do v=$((v * 2)); d=$((d + 1)); done
             while [ "$v" -gt "$2" ]; do v=$((v / 2)); d=$((d + 1)); done; echo $d; }
ms=$((g + $(distance "$t" 128) + $(distance "$c" 8)))
printf '#!/bin/sh\necho "time_ms=%s.5"\n' "$ms" > "$exe"
chmod +x "$exe"
