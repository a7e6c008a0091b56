int main()
{
    fprintf(stderr, "oops\n");
    return 1;
}

// EXPECT: 3:5: error: use of undeclared identifier 'fprintf'
// EXPECT: 3:13: error: use of undeclared identifier 'stderr'
