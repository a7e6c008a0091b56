#include <stdio.h>
#include <stdlib.h>

int main() {
  FILE *f = fopen("out.txt", "w");
  int rc = system("ls");
  return rc;
}

// EXPECT: 5:13: error: call to unavailable function 'fopen': minicuda gives a program no files; write output with printf
// EXPECT: 6:12: error: call to unavailable function 'system': minicuda runs no other programs
