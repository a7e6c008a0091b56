#ifndef BLOCK
#define BLOCK 32
#endif
#define SCALE 3
