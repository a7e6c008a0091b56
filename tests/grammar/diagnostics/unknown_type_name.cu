__global__ void k(vec3 *out)
{
    out[0].x = 1.0f;
}

// EXPECT: 1:19: error: unknown type name 'vec3'
