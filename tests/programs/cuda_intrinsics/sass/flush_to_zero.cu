// RUN: minicudac %s -O3 -ftz=true | filecheck %s --check-prefix=FTZ
// RUN: minicudac %s -O3 --ftz=true | filecheck %s --check-prefix=FTZ
// RUN: minicudac %s -O3 -use_fast_math | filecheck %s --check-prefix=FTZ
// RUN: minicudac %s -O3 | filecheck %s --check-prefix=IEEE
// RUN: minicudac %s -O3 -use_fast_math -ftz=false | filecheck %s --check-prefix=IEEE
//
// -ftz=true (implied by -use_fast_math): device code's f32 instructions carry .FTZ, as
// nvcc's (tests/data/groundtruth/cuda/out/features_sass.txt): FADD.FTZ, FMUL.FTZ,
// FFMA.FTZ, FSETP.<cmp>.FTZ, FMNMX.FTZ, F2I.FTZ; a float widened to double is flushed by
// FMUL.FTZ x, 1 before a plain F2F.F64.F32, and a double narrowed to float is
// F2F.FTZ.F32.F64.  Doubles and host code keep their subnormals.

__global__ void ops(float *f, double *d, int *i)
{
    // FTZ-LABEL: .kernel ops
    // FTZ: FADD.FTZ
    // FTZ: FMUL.FTZ
    // FTZ: FFMA.FTZ
    // FTZ: FSETP.GT.FTZ
    // FTZ: FMNMX.FTZ.MIN
    // FTZ: F2I.FTZ.S32.F32
    // FTZ: FMUL.FTZ [[W:R[0-9]+]], {{R[0-9]+}}, 1.0
    // FTZ-NEXT: F2F.F64.F32 {{R[0-9]+}}, [[W]]
    // FTZ: DADD {{R}}
    // FTZ: F2F.FTZ.F32.F64
    // FTZ: .end ops
    // IEEE-LABEL: .kernel ops
    // IEEE-NOT: FTZ
    // IEEE: .end ops
    f[0] = f[1] + f[2];
    f[3] = f[4] * f[5];
    f[6] = fmaf(f[7], f[8], f[9]);
    i[0] = f[10] > f[11];
    f[12] = fminf(f[13], f[14]);
    i[1] = (int)f[15];
    d[0] = (double)f[16] + d[1];
    f[17] = (float)d[2];
}

int main()
{
    // FTZ-LABEL: .host main
    // FTZ-NOT: FTZ
    // FTZ: .end main
    float x = 1e-40f;
    return x * 0.5f > 0.0f;
}
