// RUN: minicudac %s -O0 | filecheck %s
//
// Each CUDA intrinsic becomes the SASS instruction nvcc uses for it.  At -O0 (nvcc -G's
// shape) __clz and __ffs are header functions called out of line (minicuda/builtins.py's
// G_OUT_OF_LINE, measured in tests/data/groundtruth/fidelity/gcalls): the instruction is in the
// function's body, printed ahead of the kernel, and the kernel calls it.
// CHECK-LABEL: .device __clz(int)
// CHECK-SAME: ([[A:R[0-9]+]]:arg0:4:value) -> (
// CHECK: FLO.U32 [[A]], [[A]]
// CHECK: RET
// CHECK-LABEL: .device __ffs(int)
// CHECK-SAME: ([[B:R[0-9]+]]:arg0:4:value) -> (
// CHECK: BREV.U32 [[B]], [[B]]
// CHECK-NEXT: FLO.U32.SH [[B]], [[B]]
// CHECK: RET
__global__ void bits(unsigned *o, unsigned long long *w, const float *p, int *q) {
    // CHECK-LABEL: .kernel bits
    // CHECK: CALL {{R[0-9]+}}, $__clz(int), {{R[0-9]+}}
    o[0] = __clz(o[1]);
    // CHECK: CALL {{R[0-9]+}}, $__ffs(int), {{R[0-9]+}}
    o[1] = __ffs(o[2]);
    // CHECK: POPC.U64
    o[2] = __popcll(w[0]);
    // CHECK: BREV.U64
    w[1] = __brevll(w[0]);
    // CHECK: PRMT.U32
    o[3] = __byte_perm(o[0], o[1], 0x5410);
    // CHECK: SHF.L.W.U32
    o[4] = __funnelshift_l(o[0], o[1], o[2]);
    // CHECK: SHF.R.C.U32
    o[5] = __funnelshift_rc(o[0], o[1], o[2]);
    // CHECK: LDG.32.CONSTANT
    q[0] = __ldg(&q[1]);
    // CHECK: LDG.64.CONSTANT
    w[2] = __ldg(&w[3]);
}

__global__ void math(float *f, int *i) {
    // CHECK-LABEL: .kernel math
    // nvcc's sm_90 sequences (tests/data/groundtruth/mufu_sm90.sass)
    // CHECK: FMUL {{.*}}1.44269
    // CHECK-NEXT: FSETP.GE [[P:P[0-9]+]], {{.*}}-126.0
    // CHECK-NEXT: @![[P]] FMUL {{.*}}0.5
    // CHECK-NEXT: MUFU.EX2.APPROX
    // CHECK-NEXT: @![[P]] FMUL
    f[0] = __expf(f[1]);
    // CHECK: FSETP.GE [[Q:P[0-9]+]], {{.*}}1.17549
    // CHECK-NEXT: @![[Q]] FMUL {{.*}}16777216.0
    // CHECK-NEXT: MUFU.LG2.APPROX
    // CHECK-NEXT: @![[Q]] FADD {{.*}}-24.0
    // CHECK-NEXT: FMUL {{.*}}0.693147
    f[1] = __logf(f[2]);
    // CHECK: MUFU.RCP.APPROX
    // CHECK-NEXT: FMUL
    f[2] = __fdividef(f[3], f[4]);
    // CHECK: FMUL.RZ {{.*}}0.159154
    // CHECK-NEXT: MUFU.COS.APPROX
    // CHECK-NEXT: MUFU.SIN.APPROX
    // CHECK: MUFU.RCP.APPROX
    f[3] = __tanf(f[4]);
    // CHECK: MUFU.RSQ.APPROX
    // CHECK-NEXT: @!{{P[0-9]+}} FMUL {{.*}}4096.0
    f[4] = rsqrtf(f[5]);
    // CHECK: F2I.S32.F32.RN
    i[0] = __float2int_rn(f[0]);
    // CHECK: F2I.U32.F32.RD
    i[1] = __float2uint_rd(f[0]);
    // CHECK: I2F.F32.S32
    f[5] = __int2float_rn(i[2]);
    // CHECK: F2F.F32.F64
    f[6] = __double2float_rn(f[0] * 0.5);
    // CHECK: FSETP.NE
    i[3] = isnan(f[7]);
    // CHECK: FFMA
    f[8] = __fmaf_rn(f[0], f[1], f[2]);
}
