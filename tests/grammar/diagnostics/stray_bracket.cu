__global__ void k(int *out)
{
    out[0] = out[1]];
}

// EXPECT: 3:20: error: extraneous ']' before ';'
