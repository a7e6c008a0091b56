#if
#endif
int main()
{
#if !
    return 1;
#elif !defined(
    return 2;
#endif
#if // nothing
#endif
    return 0;
}

// EXPECT: 1:4: error: #if with no expression
// EXPECT: 5:5: error: expected value in expression
// EXPECT: 7:7: error: macro name missing
// EXPECT: 10:4: error: #if with no expression
