// CUDA's device heap outside a lab build: cudaDeviceSetLimit(cudaLimitMallocHeapSize), malloc and
// free, new and delete in device code; memory past the heap's limit is NULL.
#include "compat_check.h"

struct node {
    int value;
    node *next;
};

__global__ void build_lists(int *sums, int length)
{
    int t = threadIdx.x;
    node *head = nullptr;
    for (int k = 1; k <= length; k++) {
        node *n = new node;
        n->value = k * (t + 1);
        n->next = head;
        head = n;
    }
    int *scratch = (int *)malloc(length * sizeof(int));
    int s = 0, i = 0;
    for (node *n = head; n; n = n->next)
        scratch[i++] = n->value;
    for (int k = 0; k < length; k++)
        s += scratch[k];
    free(scratch);
    while (head) {
        node *next = head->next;
        delete head;
        head = next;
    }
    sums[t] = s;
}

__device__ void *kept; // (the pointer escapes: the compiler may not fold the malloc away)

__global__ void too_much(int *got)
{
    kept = malloc((size_t)64 << 20); // more than the heap holds
    got[0] = kept != nullptr;
    free(kept);
}

int main()
{
    size_t heap = 0;
    CHECK_CUDA(cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)16 << 20));
    CHECK_CUDA(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    EXPECT(heap == (size_t)16 << 20);
    int *sums = nullptr;
    CHECK_CUDA(cudaMalloc(&sums, 32 * sizeof(int)));
    build_lists<<<1, 32>>>(sums, 10);
    CHECK_CUDA(cudaGetLastError());
    int host[32];
    CHECK_CUDA(cudaMemcpy(host, sums, sizeof host, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++)
        EXPECT(host[t] == 55 * (t + 1));
    too_much<<<1, 1>>>(sums);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(host, sums, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(host[0] == 0);
    CHECK_CUDA(cudaFree(sums));
    std::printf("ok device_heap\n");
    return 0;
}
