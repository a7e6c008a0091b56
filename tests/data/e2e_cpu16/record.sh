#!/bin/bash
# minicuda end to end and per kernel with --jobs 1..16, CPU only (16-core lent machine)
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
mkdir -p /tmp/src && tar -xzf gpurec/e2espeed/src.tar.gz -C /tmp/src || exit 1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/mc gpurec/e2espeed/whl/*.whl 2>&1 | tail -2
# llvmlite and numpy: the image's (numba's llvmlite)
(cd /tmp/src && python3 -m pip install -q --no-index --no-deps --no-build-isolation --target /tmp/mc . 2>&1 | tail -2)
export PYTHONPATH=/tmp/mc MINICUDA_CACHE_DIR=/tmp/mccache
cd /tmp/src
{ nproc; python3 --version; grep -m1 "model name" /proc/cpuinfo; free -g | head -2; python3 -c "import numpy, llvmlite; print(numpy.__version__, llvmlite.__version__)"; } 2>&1 | tee $OUT/machine.txt
M="python3 -m minicuda.cli"
cat > /tmp/rr.py <<'PY'
import resource, subprocess, sys, time
t = time.perf_counter(); r = subprocess.run(sys.argv[2:], capture_output=True, text=True)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
rows = [l for l in r.stderr.splitlines() if "(" in l and "%)" in l][:8]
out = [l for l in r.stdout.splitlines() if "elapsed" in l or "match" in l or "sum" in l][-2:]
print(f"== {sys.argv[1]} rc {r.returncode} wall {time.perf_counter()-t:.2f} s cpu {u.ru_utime+u.ru_stime:.2f} s (user {u.ru_utime:.2f} sys {u.ru_stime:.2f}) maxrss {u.ru_maxrss/1e6:.2f} GB")
print("\n".join(rows + out)); print(r.stderr[-300:] if r.returncode else "")
PY
RI="samples/reduceInteger.cu"; SM="samples/sumMatrix.cu"
run() { python3 /tmp/rr.py "$@" 2>&1 | tee -a $OUT/e2e.txt; }
echo "### start $(el)" | tee -a $OUT/e2e.txt
run "reduceInteger cold j16" python3 -c "import sys; from minicuda.cli import minicuda_main as m; sys.exit(m(sys.argv[1:]))" run --time-report -j 16 $RI
for j in 16 8 4 2 1; do
  run "reduceInteger warm j$j" python3 -c "import sys; from minicuda.cli import minicuda_main as m; sys.exit(m(sys.argv[1:]))" run --time-report -j $j $RI
done
run "reduceInteger warm j16 OPENBLAS_NUM_THREADS=16" env OPENBLAS_NUM_THREADS=16 python3 -c "import sys; from minicuda.cli import minicuda_main as m; sys.exit(m(sys.argv[1:]))" run --time-report -j 16 $RI
echo "### sumMatrix $(el)" | tee -a $OUT/e2e.txt
run "sumMatrix cold j16" python3 -c "import sys; from minicuda.cli import minicuda_main as m; sys.exit(m(sys.argv[1:]))" run --time-report -j 16 $SM
for j in 16 4 1 8 2; do
  [ $(el) -gt 200 ] && break
  run "sumMatrix warm j$j" python3 -c "import sys; from minicuda.cli import minicuda_main as m; sys.exit(m(sys.argv[1:]))" run --time-report -j $j $SM
done
echo "### kernels $(el)" | tee -a $OUT/e2e.txt
for j in 16 1 4; do
  [ $(el) -gt 215 ] && break
  timeout $((265 - $(el))) python3 -m minicuda.bench --engine jit --skip native,pocl,numba,e2e --samples /tmp/src/samples --jobs $j --json $OUT/kernels_j$j.json > $OUT/kernels_j$j.txt 2>&1
  echo "kernels j$j done $(el)" | tee -a $OUT/e2e.txt
done
echo "### end $(el)" | tee -a $OUT/e2e.txt
