// std::chrono::duration<Rep, Period> as host code times GPU work: a time point difference
// held as duration<double, std::milli> and duration<float> (seconds), duration_cast between
// integer and floating counts (truncating toward zero), the standard durations' implicit
// conversions to finer ones, arithmetic and comparisons, a time point minus a duration, and
// std::ratio's reduced num/den.  Only what does not vary from run to run is printed.
// The kernel: out[i] = i * i for 256 threads; the sum of squares 0..255 is 5559680.
#include <chrono>
#include <cstdio>
#include <ratio>

__global__ void squares(long *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = (long)i * i;
}

typedef std::chrono::duration<double, std::milli> FpMilliseconds;

double toSeconds(std::chrono::duration<double> d) { return d.count(); }

int main()
{
    long *d_out, h[256];
    cudaMalloc(&d_out, sizeof(h));
    auto start = std::chrono::high_resolution_clock::now();
    squares<<<2, 128>>>(d_out);
    cudaDeviceSynchronize();
    auto stop = std::chrono::high_resolution_clock::now();
    cudaMemcpy(h, d_out, sizeof(h), cudaMemcpyDeviceToHost);
    long sum = 0;
    for (int i = 0; i < 256; i++) sum += h[i];
    printf("sum of squares %ld\n", sum);

    FpMilliseconds elapsed = stop - start;
    std::chrono::duration<float> elapsedSeconds = stop - start;
    auto elapsedUs = std::chrono::duration_cast<std::chrono::microseconds>(stop - start);
    printf("elapsed is non-negative: %s %s %s\n", elapsed.count() >= 0.0 ? "yes" : "no",
           elapsedSeconds.count() >= 0.0f ? "yes" : "no", elapsedUs.count() >= 0 ? "yes" : "no");
    printf("within an hour: %s\n", stop - start < std::chrono::hours(1) ? "yes" : "no");

    std::chrono::nanoseconds ns(2500000);
    FpMilliseconds ms = ns;
    std::chrono::duration<float> secs = ns;
    std::chrono::duration<double> fromMs(std::chrono::milliseconds(1500));
    auto us = std::chrono::duration_cast<std::chrono::duration<double, std::micro> >(ms);
    printf("2500000 ns = %.3f ms = %g s; 1500 ms = %.2f s = %.1f us in a call\n", ms.count(), secs.count(),
           fromMs.count(), us.count() * 0 + toSeconds(fromMs) * 1e6);
    printf("casts: %ld ms, %ld s, %ld us, %ld ms\n", std::chrono::duration_cast<std::chrono::milliseconds>(ms).count(),
           std::chrono::duration_cast<std::chrono::seconds>(std::chrono::duration<double>(2.9)).count(),
           std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::duration<float, std::milli>(1.25f)).count(),
           std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::microseconds(-2500)).count());
    double perSecond = std::chrono::duration_cast<std::chrono::duration<double> >(std::chrono::microseconds(1234567)).count();
    printf("1234567 us = %.6f s\n", perSecond);

    std::chrono::seconds twoMinutes = std::chrono::minutes(2);
    std::chrono::milliseconds total = std::chrono::milliseconds(250) + std::chrono::milliseconds(1000);
    total += std::chrono::milliseconds(5);
    total = total * 2;
    printf("2 min = %ld s; total %ld ms, over a second %d, equal to itself %d, negated %ld\n", twoMinutes.count(),
           total.count(), total > std::chrono::milliseconds(1000), total == total, (-total).count());

    auto now = std::chrono::steady_clock::now();
    auto anHourAgo = now - std::chrono::hours(1);
    printf("an hour ago is earlier %d, %ld h, %ld min apart\n", anHourAgo < now,
           std::chrono::duration_cast<std::chrono::hours>(now - anHourAgo).count(),
           std::chrono::duration_cast<std::chrono::minutes>(now - anHourAgo).count());
    printf("ratio<2, 4> = %ld/%ld, milli = %ld/%ld\n", std::ratio<2, 4>::num, std::ratio<2, 4>::den, std::milli::num,
           std::milli::den);
    cudaFree(d_out);
    return 0;
}
