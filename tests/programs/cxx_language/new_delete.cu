// new/delete on the host heap, and a kernel using device-side new/delete.
#include <cstdio>

struct Node { int value; Node *next; };

__global__ void device_heap(int *out) {
    int *tmp = new int[4];
    for (int i = 0; i < 4; i++) tmp[i] = threadIdx.x * 10 + i;
    int *one = new int(7);
    out[threadIdx.x] = tmp[3] + *one;
    delete one;
    delete[] tmp;
}

int main() {
    int n = 5;
    float *a = new float[n];
    for (int i = 0; i < n; i++) a[i] = i * 0.5f;
    printf("a[4] = %.2f\n", a[4]);
    delete[] a;
    int *v = new int(41);
    (*v)++;
    printf("v = %d\n", *v);
    delete v;
    int *zeros = new int[3]();
    printf("zeros: %d %d %d\n", zeros[0], zeros[1], zeros[2]);
    delete[] zeros;
    double *d = new double();
    printf("d = %.1f\n", *d);
    delete d;
    Node *blank = new Node();
    printf("blank %d %d\n", blank->value, blank->next == nullptr);
    delete blank;
    Node *head = nullptr;
    for (int i = 0; i < 3; i++) {
        Node *node = new Node;
        node->value = i;
        node->next = head;
        head = node;
    }
    for (Node *p = head; p != nullptr; p = p->next) printf("node %d\n", p->value);
    while (head) { Node *next = head->next; delete head; head = next; }
    char **rows = new char *[2];
    rows[0] = new char[3];
    rows[0][0] = 'o'; rows[0][1] = 'k'; rows[0][2] = 0;
    printf("%s\n", rows[0]);
    delete[] rows[0];
    delete[] rows;
    int *dout;
    cudaMalloc(&dout, 4 * sizeof(int));
    device_heap<<<1, 4>>>(dout);
    int h[4];
    cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
    printf("device: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    cudaFree(dout);
    return 0;
}
