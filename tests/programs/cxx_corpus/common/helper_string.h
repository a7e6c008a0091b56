// Command-line helpers in the manner of the SDK samples' helper_string.h, written for
// the corpus: flags are given as -name or -name=value (also with --).
#pragma once

#include <stdlib.h>
#include <string.h>

inline int stringRemoveDelimiter(char delimiter, const char *string)
{
    int string_start = 0;
    while (string[string_start] == delimiter) {
        string_start++;
    }
    if (string_start >= (int)strlen(string) - 1) {
        return 0;
    }
    return string_start;
}

inline bool checkCmdLineFlag(const int argc, const char **argv, const char *string_ref)
{
    for (int i = 1; i < argc; i++) {
        int string_start = stringRemoveDelimiter('-', argv[i]);
        const char *string_argv = &argv[i][string_start];
        const char *equal_pos = strchr(string_argv, '=');
        int argv_length = (int)(equal_pos == 0 ? strlen(string_argv) : equal_pos - string_argv);
        int length = (int)strlen(string_ref);
        if (length == argv_length && !strncmp(string_argv, string_ref, length)) {
            return true;
        }
    }
    return false;
}

inline int getCmdLineArgumentInt(const int argc, const char **argv, const char *string_ref)
{
    int value = -1;
    for (int i = 1; i < argc; i++) {
        int string_start = stringRemoveDelimiter('-', argv[i]);
        const char *string_argv = &argv[i][string_start];
        int length = (int)strlen(string_ref);
        if (!strncmp(string_argv, string_ref, length)) {
            if (length + 1 <= (int)strlen(string_argv)) {
                int auto_inc = (string_argv[length] == '=') ? 1 : 0;
                value = atoi(&string_argv[length + auto_inc]);
            } else {
                value = 0;
            }
        }
    }
    return value;
}
