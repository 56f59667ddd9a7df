#!/bin/sh
# Stands in for nvcc: fake-build.sh SRC EXE -DLAUNCHOPT_THRESHOLD=T -DLAUNCHOPT_CFACTOR=C
# writes EXE, a script that prints a time made from the configuration:
# granularity (warp 30, block 20, grid 10) + threshold (32: 3, 128: 0, 256: 1,
# 1024: 2) + factor (1: 2, 2: 0, 4: 1) + 0.5, so t128_c2_grid (10.5 ms) is
# best. The multiblock file fails to build, factor 8 fails at run time.
# FAKE_TIME_FORMAT=result prints a bench harness RESULT line instead.
src=$1 exe=$2
shift 2
for d; do
  case $d in
    -DLAUNCHOPT_THRESHOLD=*) t=${d#*=} ;;
    -DLAUNCHOPT_CFACTOR=*) c=${d#*=} ;;
  esac
done
# The file must be launchopt's output for that granularity.
grep -q 'LAUNCHOPT_THRESHOLD' "$src" || { echo "not a transformed file: $src" >&2; exit 1; }
case $src in
  *.warp.cu) g=30 ;;
  *.block.cu) g=20 ;;
  *.grid.cu) g=10 ;;
  *) echo "fake nvcc: error: cannot build $src" >&2; exit 1 ;;
esac
case $t in 32) tc=3 ;; 128) tc=0 ;; 256) tc=1 ;; *) tc=2 ;; esac
case $c in 1) cc=2 ;; 2) cc=0 ;; 4) cc=1 ;; *) cc=-1 ;; esac
ms="$((g + tc + cc)).5"
if [ "${FAKE_TIME_FORMAT:-}" = result ]; then
  line="RESULT,app,data,v,OK,5,$ms,1.0,99.0,"
else
  line="time_ms=$ms"
fi
cat > "$exe" <<EOS
#!/bin/sh
echo "time_ms=999 (a line before the last one does not count)"
[ $cc -ge 0 ] || { echo "verification failed"; exit 1; }
echo "$line"
EOS
chmod +x "$exe"
