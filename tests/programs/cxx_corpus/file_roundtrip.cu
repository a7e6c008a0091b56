// Reads its input from a file the program writes first (text with fprintf/fscanf, then
// binary with fwrite/fread), as course exercises read their data sets.
#include <stdio.h>
#include <stdlib.h>

__global__ void prefixMax(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int m = in[0];
    for (int j = 1; j <= i; j++) m = max(m, in[j]);
    out[i] = m;
}

int main(void)
{
    const char *textName = "corpus_input.txt";
    FILE *f = fopen(textName, "w");
    if (!f) { printf("cannot write %s\n", textName); return 1; }
    const int n = 200;
    fprintf(f, "%d\n", n);
    for (int i = 0; i < n; i++) fprintf(f, "%d%c", (i * 37 + 11) % 503, (i % 10 == 9) ? '\n' : ' ');
    fclose(f);

    FILE *missing = fopen("no_such_file_here.txt", "r");
    printf("missing file: %s\n", missing == NULL ? "NULL" : "opened");

    f = fopen(textName, "r");
    int count = 0;
    if (fscanf(f, "%d", &count) != 1) { printf("bad header\n"); return 1; }
    int *h = (int *)malloc(count * sizeof(int));
    int got = 0;
    while (got < count && fscanf(f, "%d", &h[got]) == 1) got++;
    printf("read %d of %d values, eof=%d\n", got, count, fscanf(f, "%d", &count) == EOF);
    fclose(f);

    int *d_in, *d_out;
    cudaMalloc(&d_in, got * sizeof(int));
    cudaMalloc(&d_out, got * sizeof(int));
    cudaMemcpy(d_in, h, got * sizeof(int), cudaMemcpyHostToDevice);
    prefixMax<<<(got + 63) / 64, 64>>>(d_in, d_out, got);
    int *res = (int *)malloc(got * sizeof(int));
    cudaMemcpy(res, d_out, got * sizeof(int), cudaMemcpyDeviceToHost);

    FILE *b = fopen("corpus_output.bin", "wb");
    size_t written = fwrite(res, sizeof(int), got, b);
    fclose(b);
    int *back = (int *)calloc(got, sizeof(int));
    b = fopen("corpus_output.bin", "rb");
    size_t readBack = fread(back, sizeof(int), got, b);
    fclose(b);
    int same = 1;
    for (int i = 0; i < got; i++) same &= back[i] == res[i];
    printf("binary round trip: wrote %zu read %zu same=%d\n", written, readBack, same);

    FILE *lines = fopen(textName, "r");
    char buf[256];
    int lineCount = 0;
    while (fgets(buf, sizeof(buf), lines)) lineCount++;
    fclose(lines);
    printf("lines in text file: %d\n", lineCount);
    printf("prefix max: %d %d %d ... %d\n", res[0], res[1], res[10], res[got - 1]);
    remove(textName);
    remove("corpus_output.bin");
    free(h);
    free(res);
    free(back);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
