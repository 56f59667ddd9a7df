#!/bin/bash
cd "$(dirname "$0")"
export PATH=/usr/local/cuda/bin:$PATH
nvcc -arch=sm_90 -rdc=true -O3 plan.cu -o /tmp/plan -lcudadevrt || exit 1
while IFS='|' read -r name plan; do
  for rep in 1 2; do
    r=$(timeout -k 1 6 /tmp/plan $plan 2>&1); st=$?
    echo "$name rep $rep exit $st: $r"
  done
done < plans.txt
