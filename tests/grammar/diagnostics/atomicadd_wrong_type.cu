__global__ void count(int *counter)
{
    atomicAdd(*counter, 1);
}

// EXPECT: 3:5: error: no matching function for call to 'atomicAdd' with arguments (int, int)
