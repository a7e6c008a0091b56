#include <stdio.h>
#include <stdlib.h>

int main() {
  int rc = system("ls");
  return rc;
}

// EXPECT: 5:12: error: call to unavailable function 'system': minicuda runs no other programs
