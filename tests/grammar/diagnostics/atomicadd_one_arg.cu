__global__ void count(int *counter)
{
    atomicAdd(counter);
}

// EXPECT: 3:5: error: no matching function for call to 'atomicAdd' with arguments (int *)
