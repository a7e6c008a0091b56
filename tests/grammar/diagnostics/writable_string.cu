void use(char *s) {}
int main()
{
    char *s = "hello";
    use("world");
    const char *fine = "ok";
    s = "again";
    return fine[0] + s[0];
}

// EXPECT: 4:15: warning: ISO C++11 does not allow conversion from string literal to 'char *' [-Wwritable-strings]
// EXPECT: 5:9: warning: ISO C++11 does not allow conversion from string literal to 'char *' [-Wwritable-strings]
// EXPECT: 7:9: warning: ISO C++11 does not allow conversion from string literal to 'char *' [-Wwritable-strings]
