// Probe kernels for ptxas's -O3 if-conversion and exit rules (minicuda's o3pred work).
// Compiled with nvcc -O3 -arch=sm_90 -cubin; the SASS is read with cuobjdump -sass.

__global__ void exit_small_store(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (v > 0) out[t] = v;
}

__global__ void exit_two_stores(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (v > 0) { out[t] = v; out[t + 1] = 7; }
}

__global__ void exit_bounds_ifelse(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    if (in[t] % 2 == 0) out[t] = in[t] * 2;
    else out[t] = in[t] + 1;
  }
}

__global__ void exit_ifelse_end_nosink(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (v > 0) out[t] = v + in[t + 1];
  else out[t + 2] = v * 3;
}

__global__ void div_value_arm_4(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
  }
  out[t] = v;
}

__global__ void div_value_arm_5(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
  }
  out[t] = v;
}

__global__ void div_value_arm_6(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
  }
  out[t] = v;
}

__global__ void div_value_arm_7(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
  }
  out[t] = v;
}

__global__ void div_value_arm_8(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
    v = v * v + 8;
  }
  out[t] = v;
}

__global__ void div_value_arm_10(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
    v = v * v + 8;
    v = v * v + 9;
    v = v * v + 10;
  }
  out[t] = v;
}

__global__ void div_value_arm_12(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
    v = v * v + 8;
    v = v * v + 9;
    v = v * v + 10;
    v = v * v + 11;
    v = v * v + 12;
  }
  out[t] = v;
}

__global__ void div_value_arm_16(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
    v = v * v + 8;
    v = v * v + 9;
    v = v * v + 10;
    v = v * v + 11;
    v = v * v + 12;
    v = v * v + 13;
    v = v * v + 14;
    v = v * v + 15;
    v = v * v + 16;
  }
  out[t] = v;
}

__global__ void div_value_arm_24(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
    v = v * v + 8;
    v = v * v + 9;
    v = v * v + 10;
    v = v * v + 11;
    v = v * v + 12;
    v = v * v + 13;
    v = v * v + 14;
    v = v * v + 15;
    v = v * v + 16;
    v = v * v + 17;
    v = v * v + 18;
    v = v * v + 19;
    v = v * v + 20;
    v = v * v + 21;
    v = v * v + 22;
    v = v * v + 23;
    v = v * v + 24;
  }
  out[t] = v;
}

__global__ void uni_value_arm_2(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (n > 5) {
    v = v * v + 1;
    v = v * v + 2;
  }
  out[t] = v;
}

__global__ void uni_value_arm_3(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (n > 5) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
  }
  out[t] = v;
}

__global__ void uni_value_arm_4(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (n > 5) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
  }
  out[t] = v;
}

__global__ void uni_value_arm_5(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (n > 5) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
  }
  out[t] = v;
}

__global__ void uni_value_arm_6(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (n > 5) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
  }
  out[t] = v;
}

__global__ void uni_value_arm_8(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (n > 5) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
    v = v * v + 8;
  }
  out[t] = v;
}

__global__ void uni_value_arm_12(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (n > 5) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
    v = v * v + 8;
    v = v * v + 9;
    v = v * v + 10;
    v = v * v + 11;
    v = v * v + 12;
  }
  out[t] = v;
}

__global__ void div_store_arm_2(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    out[t] = v;
  }
  out[t + 256] = v;
}

__global__ void div_store_arm_4(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    out[t] = v;
  }
  out[t + 256] = v;
}

__global__ void div_store_arm_6(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    out[t] = v;
  }
  out[t + 256] = v;
}

__global__ void div_store_arm_8(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
    v = v * v + 8;
    out[t] = v;
  }
  out[t + 256] = v;
}

__global__ void div_store_arm_12(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
    v = v * v + 8;
    v = v * v + 9;
    v = v * v + 10;
    v = v * v + 11;
    v = v * v + 12;
    out[t] = v;
  }
  out[t + 256] = v;
}

__global__ void div_store_reload_2(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    out[t] = v;
  }
  out[t] += v;
}

__global__ void div_store_reload_6(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    out[t] = v;
  }
  out[t] += v;
}

__global__ void div_store_reload_12(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
    v = v * v + 8;
    v = v * v + 9;
    v = v * v + 10;
    v = v * v + 11;
    v = v * v + 12;
    out[t] = v;
  }
  out[t] += v;
}

__global__ void div_store_reload_20(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
    v = v * v + 8;
    v = v * v + 9;
    v = v * v + 10;
    v = v * v + 11;
    v = v * v + 12;
    v = v * v + 13;
    v = v * v + 14;
    v = v * v + 15;
    v = v * v + 16;
    v = v * v + 17;
    v = v * v + 18;
    v = v * v + 19;
    v = v * v + 20;
    out[t] = v;
  }
  out[t] += v;
}

__global__ void div_ifelse_3(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
  } else {
    v = v * 3 + 1;
    v = v * 3 + 2;
    v = v * 3 + 3;
  }
  out[t] = v;
}

__global__ void div_ifelse_4(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
  } else {
    v = v * 3 + 1;
    v = v * 3 + 2;
    v = v * 3 + 3;
    v = v * 3 + 4;
  }
  out[t] = v;
}

__global__ void div_ifelse_6(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
  } else {
    v = v * 3 + 1;
    v = v * 3 + 2;
    v = v * 3 + 3;
    v = v * 3 + 4;
    v = v * 3 + 5;
    v = v * 3 + 6;
  }
  out[t] = v;
}

__global__ void div_ifelse_8(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
    v = v * v + 8;
  } else {
    v = v * 3 + 1;
    v = v * 3 + 2;
    v = v * 3 + 3;
    v = v * 3 + 4;
    v = v * 3 + 5;
    v = v * 3 + 6;
    v = v * 3 + 7;
    v = v * 3 + 8;
  }
  out[t] = v;
}

__global__ void div_load_arm_1(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v += in[t + 7];
    v = v * v + 1;
  }
  out[t] = v;
}

__global__ void div_load_arm_4(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v += in[t + 7];
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
  }
  out[t] = v;
}

__global__ void div_load_arm_8(int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (t % 4 == 1) {
    v += in[t + 7];
    v = v * v + 1;
    v = v * v + 2;
    v = v * v + 3;
    v = v * v + 4;
    v = v * v + 5;
    v = v * v + 6;
    v = v * v + 7;
    v = v * v + 8;
  }
  out[t] = v;
}

