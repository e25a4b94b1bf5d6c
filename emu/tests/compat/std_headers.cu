// Standard C++ headers in a CUDA program: <iostream> and the others use __asm and other words a
// lab build forbids; emucc applies the lab's restrictions to lab builds only, so they compile.
#include <algorithm>
#include <iostream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>
#include "compat_check.h"

__global__ void triple(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= 3;
}

int main()
{
    std::vector<int> host(100);
    std::iota(host.begin(), host.end(), 1);
    int *dev = nullptr;
    CHECK_CUDA(cudaMalloc(&dev, host.size() * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(dev, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice));
    triple<<<4, 32>>>(dev, (int)host.size());
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(host.data(), dev, host.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree(dev));
    long sum = std::accumulate(host.begin(), host.end(), 0L);
    EXPECT(sum == 3L * 5050);
    EXPECT(*std::max_element(host.begin(), host.end()) == 300);
    std::ostringstream line;
    line << "ok " << std::string("std_headers");
    std::cout << line.str() << std::endl;
    return 0;
}
