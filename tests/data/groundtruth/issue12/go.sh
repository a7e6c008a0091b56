#!/bin/bash
# Builds and runs issue 12's probes on the lent GPU: bash go.sh OUTDIR
cd "$(dirname "$0")"; O=${1:-out}; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/device.txt; nvcc --version | tail -2 >> $O/device.txt
run() { local name=$1; shift; { echo "\$ $*"; timeout 120 "$@"; echo "exit $?"; } > $O/$name.txt 2>&1; }
for f in launch mandel loop ext apierrors kassert printf_fifo pf strlit hostfaults; do
  nvcc -O3 -arch=sm_90 -o /tmp/$f $f.cu > $O/$f.build.txt 2>&1; echo "exit $?" >> $O/$f.build.txt
done
for n in 1000 2000 8191 8192 10000; do
  nvcc -O3 -arch=sm_90 -o /tmp/params$n params$n.cu > $O/params$n.build.txt 2>&1; echo "exit $?" >> $O/params$n.build.txt
  [ -x /tmp/params$n ] && run params$n.run /tmp/params$n
done
nvcc -O3 -arch=sm_70 -o /tmp/params8192_70 params8192.cu > $O/params8192.sm70.build.txt 2>&1; echo "exit $?" >> $O/params8192.sm70.build.txt
nvcc -O3 -arch=sm_90 -Xptxas -v -o /tmp/launchv launch.cu > $O/launch.ptxas.txt 2>&1
for f in launch mandel loop ext apierrors kassert strlit; do run $f /tmp/$f; done
run pf bash -c "/tmp/pf | wc -l"
for c in 0 1 2 3 4 5 6 7 8 9; do run hostfaults$c bash -c "/tmp/hostfaults $c; echo status \$?"; done
run hostfaults4b bash -c "/tmp/hostfaults 4 2>&1; echo status \$?"
# printf FIFO: lines printed for FIFO size x format x volume
for fmt in 0 1 2 3 4 5; do
  for fifo in 4096 65536 0; do
    for lines in 1 16 64; do
      run fifo_${fmt}_${fifo}_${lines} bash -c "/tmp/printf_fifo $fifo $fmt 64 $lines | wc -l"
    done
  done
done
run fifo_0_small_first bash -c "/tmp/printf_fifo 4096 0 64 1 | head -3; /tmp/printf_fifo 4096 0 64 1 | tail -2"
run fifo_set_tiny bash -c "/tmp/printf_fifo 1 0 1 1 | wc -l"
run fifo_set_100 bash -c "/tmp/printf_fifo 100 0 1 4 | cat"
compute-sanitizer /tmp/apierrors > $O/apierrors.sanitizer.txt 2>&1
compute-sanitizer /tmp/ext > $O/ext.sanitizer.txt 2>&1
