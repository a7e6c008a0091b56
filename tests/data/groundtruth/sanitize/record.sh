#!/bin/bash
# Record compute-sanitizer's racecheck and synccheck verdicts on the sanitize corpus, in one file.
cd "$(dirname "$0")"
mkdir -p /tmp/sanbin
R="$OUT/groundtruth.txt"
{ echo "# command: nvcc -arch=sm_90 -lineinfo -o P P.cu; compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 1 ./P; compute-sanitizer --tool synccheck --error-exitcode 1 ./P"
  nvcc --version | tail -2; compute-sanitizer --version | tail -1; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$R" 2>&1
for f in *.cu; do
  n=${f%.cu}
  nvcc -arch=sm_90 -lineinfo -o /tmp/sanbin/$n "$f" > /tmp/sanbin/$n.build 2>&1 || { echo "## $n build failed" >> "$R"; cat /tmp/sanbin/$n.build >> "$R"; continue; }
  for tool in racecheck synccheck; do
    extra=""; [ $tool = racecheck ] && extra="--racecheck-report all"
    timeout 40 compute-sanitizer --tool $tool $extra --error-exitcode 1 /tmp/sanbin/$n > /tmp/sanbin/out.txt 2>&1
    rc=$?
    echo "## $n $tool exit=$rc errors=$(grep -c '^========= Error' /tmp/sanbin/out.txt) warnings=$(grep -c '^========= Warning' /tmp/sanbin/out.txt) barrier_errors=$(grep -c 'Barrier error' /tmp/sanbin/out.txt)" >> "$R"
    grep -v 'Host Frame\|Saved host backtrace\|COMPUTE-SANITIZER' /tmp/sanbin/out.txt | head -40 >> "$R"
    grep 'SUMMARY' /tmp/sanbin/out.txt | tail -2 >> "$R"
  done
done
