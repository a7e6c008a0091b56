struct Particle { float x, v; };

__global__ void step(Particle *ps)
{
    Particle p = ps[threadIdx.x];
    p->x += 1.0f;
    ps[threadIdx.x] = p;
}

// EXPECT: 6:6: error: member reference type 'Particle' is not a pointer; did you mean to use '.'?
