__global__ void k(float *p, double *d)
{
    p[0] = 1e39f;
    d[0] = 1e400;
    p[1] = 1e-50f;
    d[1] = 1e-400;
    p[2] = 3.4028235e38f + 0.0f + 0x0p0f + 1e-40f;
}

// EXPECT: 3:12: warning: magnitude of floating-point constant too large for type 'float'; maximum is 3.40282347E+38 [-Wliteral-range]
// EXPECT: 4:12: warning: magnitude of floating-point constant too large for type 'double'; maximum is 1.7976931348623157E+308 [-Wliteral-range]
// EXPECT: 5:12: warning: magnitude of floating-point constant too small for type 'float'; minimum is 1.40129846E-45 [-Wliteral-range]
// EXPECT: 6:12: warning: magnitude of floating-point constant too small for type 'double'; minimum is 4.9406564584124654E-324 [-Wliteral-range]
