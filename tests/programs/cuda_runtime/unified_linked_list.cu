// Managed memory holds pointers that host and device code both follow: a linked list
// built on the host in cudaMallocManaged nodes, summed and then modified by a kernel,
// and read back by the host without any copy.  Nodes hold 1..10; the kernel doubles
// every value and writes the running sum into each node.
#include <cstdio>
#include <cuda_runtime.h>

struct Node {
    int value;
    int prefix;
    Node *next;
};

__global__ void walk(Node *head, int *total) {
    int sum = 0;
    for (Node *n = head; n != nullptr; n = n->next) {
        n->value *= 2;
        sum += n->value;
        n->prefix = sum;
    }
    *total = sum;
}

int main() {
    Node *head = nullptr, *tail = nullptr;
    for (int i = 1; i <= 10; i++) {
        Node *n;
        cudaMallocManaged(&n, sizeof(Node));
        n->value = i;
        n->prefix = 0;
        n->next = nullptr;
        if (tail) tail->next = n; else head = n;
        tail = n;
    }
    int *total;
    cudaMallocManaged(&total, sizeof(int));
    walk<<<1, 1>>>(head, total);
    cudaDeviceSynchronize();
    printf("total %d\n", *total);
    for (Node *n = head; n; n = n->next) printf("%d:%d%s", n->value, n->prefix, n->next ? " " : "\n");
    Node *n = head;
    while (n) {
        Node *next = n->next;
        cudaFree(n);
        n = next;
    }
    cudaFree(total);
    return 0;
}
