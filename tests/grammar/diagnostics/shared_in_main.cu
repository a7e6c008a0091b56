int main()
{
    __shared__ float tile[32];
    tile[0] = 1.0f;
    return 0;
}

// EXPECT: 3:22: error: a static "__shared__" variable declaration is not allowed inside a host function body
