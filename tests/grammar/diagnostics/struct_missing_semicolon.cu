struct Point {
    float x, y;
}

__global__ void k(Point *p)
{
    p->x = 0.0f;
}

// EXPECT: 3:2: error: expected ';' after struct
