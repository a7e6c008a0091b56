struct Particle { float x, v; };

__global__ void step(Particle *p)
{
    p.x += p->v;
}

// EXPECT: 5:6: error: member reference type 'Particle *' is a pointer; did you mean to use '->'?
