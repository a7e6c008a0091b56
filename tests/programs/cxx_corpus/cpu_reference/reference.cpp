// Host reference for the moving-average sample, kept in its own .cpp as SDK samples do.
#include "reference.h"

extern "C" void computeGold(float *reference, const float *idata, const unsigned int len)
{
    for (unsigned int i = 0; i < len; ++i) {
        float left = i > 0 ? idata[i - 1] : 0.0f;
        float right = i + 1 < len ? idata[i + 1] : 0.0f;
        reference[i] = (left + 2.0f * idata[i] + right) * 0.25f;
    }
}

unsigned int checksumGold(const float *data, unsigned int len)
{
    unsigned int h = 2166136261u;
    for (unsigned int i = 0; i < len; ++i) {
        h ^= (unsigned int)(data[i] * 4.0f);
        h *= 16777619u;
    }
    return h;
}
