struct Particle { float x, v; };

__global__ void step(Particle *p)
{
    p->x += p->vel;
}

// EXPECT: 5:16: error: no member named 'vel' in 'Particle'
