__global__ void k(float *out)
{
    void nothing;
    out[0] = 1.0f;
}

// EXPECT: 3:10: error: variable has incomplete type 'void'
