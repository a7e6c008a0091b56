cd tests/data/groundtruth/faults
nvcc -O3 -arch=sm_90 -Xptxas -v -o stack stack.cu 2>&1 | grep -i "stack\|rec"
for d in 5 10 11 12 13 14 15 20 100; do echo "== depth $d"; ./stack $d; echo "exit $?"; done
./stack 100 16384; ./stack 1000 16384
echo "== sanitizer"; compute-sanitizer ./stack 100 2>&1 | head -30
nvcc -G -arch=sm_90 -Xptxas -v -o stackg stack.cu 2>&1 | grep -i "stack\|rec"
for d in 5 8 10 20; do echo "== G depth $d"; ./stackg $d; done
