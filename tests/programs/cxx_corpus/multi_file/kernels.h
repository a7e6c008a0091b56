#pragma once

// Kernels and launchers defined in kernels.cu and scale.cu.
__global__ void fillPattern(int *data, int n, int seed);
void launchScale(int *data, int n, int factor);
int checksum(const int *data, int n);

extern int g_launches;
