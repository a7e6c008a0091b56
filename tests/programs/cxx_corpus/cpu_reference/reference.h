// The CPU reference for the sample, compiled from reference.cpp.
#ifndef REFERENCE_H
#define REFERENCE_H

extern "C" void computeGold(float *reference, const float *idata, const unsigned int len);
unsigned int checksumGold(const float *data, unsigned int len);

#endif
