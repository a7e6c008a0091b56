# On the lent H100, from this folder: bash go.sh > h100_launch.txt 2>&1
export PATH=$PATH:/usr/local/cuda/bin
nvcc --version | tail -2
nvcc -arch=sm_90 -Xptxas -v -o /tmp/smem smem.cu 2>&1 | grep -A3 kregs | grep Used
/tmp/smem
for fk in "20000 16" "8192 8192" "12288 1" "16 12288" "16 12289"; do
  set -- $fk; echo "== devshared SIZE_F=$1 SIZE_K=$2"
  nvcc -arch=sm_90 -DSIZE_F=$1 -DSIZE_K=$2 -o /tmp/devshared devshared.cu 2>&1 && /tmp/devshared
done
for c in "int 2000" "int 8189" "int 8190" "int 10000" "struct 4096" "struct 32764" "struct 32768" "struct 100000"; do
  set -- $c; echo "== params $1 $2"; python3 params.py $1 $2 > /tmp/p.cu
  nvcc -arch=sm_90 -o /tmp/p /tmp/p.cu 2>&1 | cut -c1-300 | head -4 && /tmp/p
done
