set -x
nvcc --version | tail -2
cd tests/data/groundtruth/faults
for o in -O3 -G; do nvcc $o -arch=sm_90 -o divzero divzero.cu && ./divzero; done
nvcc -O3 -arch=sm_90 -Xptxas -v -o stack stack.cu 2>&1 | tail -3
for d in 10 20 40 100 1000 100000; do ./stack $d; echo "exit $?"; done
./stack 1000 65536; ./stack 100000 65536; echo exit $?
compute-sanitizer ./stack 100000 2>&1 | head -20
nvcc -O3 -arch=sm_90 -o alloc alloc.cu && ./alloc; echo exit $?
