// A 5x5 box blur of a generated greyscale image (unsigned char pixels), a 2D grid of 2D
// blocks, clamped at the borders; compared with the host and summarised as a checksum.
#include <cstdio>
#include <cstdlib>

#define BLUR_SIZE 2

__global__ void blurKernel(const unsigned char *in, unsigned char *out, int w, int h)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col >= w || row >= h) return;
    int pixVal = 0;
    int pixels = 0;
    for (int dr = -BLUR_SIZE; dr <= BLUR_SIZE; ++dr) {
        for (int dc = -BLUR_SIZE; dc <= BLUR_SIZE; ++dc) {
            int r = row + dr, c = col + dc;
            if (r >= 0 && r < h && c >= 0 && c < w) {
                pixVal += in[r * w + c];
                ++pixels;
            }
        }
    }
    out[row * w + col] = (unsigned char)(pixVal / pixels);
}

static void generate(unsigned char *img, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int checker = ((x / 8) + (y / 8)) % 2 ? 200 : 40;
            int circle = (x - w / 2) * (x - w / 2) + (y - h / 2) * (y - h / 2) < 15 * 15 ? 55 : 0;
            img[y * w + x] = (unsigned char)(checker + circle);
        }
}

int main()
{
    const int w = 64, h = 48;
    unsigned char *img = (unsigned char *)malloc(w * h);
    unsigned char *res = (unsigned char *)malloc(w * h);
    generate(img, w, h);
    unsigned char *d_in, *d_out;
    cudaMalloc(&d_in, w * h);
    cudaMalloc(&d_out, w * h);
    cudaMemcpy(d_in, img, w * h, cudaMemcpyHostToDevice);
    dim3 block(16, 16);
    dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
    blurKernel<<<grid, block>>>(d_in, d_out, w, h);
    cudaMemcpy(res, d_out, w * h, cudaMemcpyDeviceToHost);

    unsigned int checksum = 0;
    int errors = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int s = 0, c = 0;
            for (int dy = -BLUR_SIZE; dy <= BLUR_SIZE; dy++)
                for (int dx = -BLUR_SIZE; dx <= BLUR_SIZE; dx++)
                    if (y + dy >= 0 && y + dy < h && x + dx >= 0 && x + dx < w) {
                        s += img[(y + dy) * w + x + dx];
                        c++;
                    }
            if (res[y * w + x] != s / c) errors++;
            checksum = checksum * 33 + res[y * w + x];
        }
    printf("image %dx%d, grid (%d,%d)\n", w, h, grid.x, grid.y);
    for (int y = 4; y < h; y += 8) {
        for (int x = 0; x < w; x += 2) putchar(" .:-=+*#%@"[res[y * w + x] * 10 / 256]);
        putchar('\n');
    }
    printf("checksum %08x errors %d\n", checksum, errors);
    cudaFree(d_in);
    cudaFree(d_out);
    free(img);
    free(res);
    return 0;
}
