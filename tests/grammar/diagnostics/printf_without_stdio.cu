__global__ void hello()
{
    printf("hello from thread %d\n", threadIdx.x);
}

int main()
{
    hello<<<1, 4>>>();
    cudaDeviceSynchronize();
    return 0;
}

// EXPECT: 3:5: error: use of undeclared identifier 'printf'
