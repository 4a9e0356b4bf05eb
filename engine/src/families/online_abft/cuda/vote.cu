#include "families/online_abft/cuda/vote.hpp"

#include "core/cuda/check.hpp"
#include "families/online_abft/vote_rule.hpp"

namespace gigacheck::online_abft::cuda {

namespace {

template <class T>
__global__ void voteKernel(T* r0, const T* r1, const T* r2, long long count, VoteOut* out)
{
    unsigned long long outvoted = 0, none = 0;
    for (long long x = blockIdx.x * (long long)blockDim.x + threadIdx.x; x < count;
         x += (long long)gridDim.x * blockDim.x) {
        const VoteOutcomeOf<T> v = majorityOf<T>(r0[x], r1[x], r2[x]);
        outvoted += v.outvoted;
        if (!v.majority || v.outvoted) {
            const unsigned slot = atomicAdd(&out->listed, 1u);
            if (slot < kVoteListed)
                out->cells[slot] = v.majority ? x : -(x + 1);
        }
        if (!v.majority)
            ++none;
        else if (v.outvoted)
            r0[x] = v.value;
    }
    if (outvoted)
        atomicAdd(&out->outvoted, outvoted);
    if (none)
        atomicAdd(&out->withoutMajority, none);
}

}  // namespace

void vote(Precision p, void* r0, const void* r1, const void* r2, std::int64_t count, VoteOut* scratch,
          VoteOut* hostOut, cudaStream_t s)
{
    CUDA_CHECK(cudaMemsetAsync(scratch, 0, sizeof(VoteOut), s));
    int device = 0, sms = 1;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const int threads = 256, blocks = sms * 8;
    if (p == Precision::F32)
        voteKernel<float><<<blocks, threads, 0, s>>>(static_cast<float*>(r0), static_cast<const float*>(r1),
                                                     static_cast<const float*>(r2), count, scratch);
    else
        voteKernel<double><<<blocks, threads, 0, s>>>(static_cast<double*>(r0), static_cast<const double*>(r1),
                                                      static_cast<const double*>(r2), count, scratch);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpyAsync(hostOut, scratch, sizeof(VoteOut), cudaMemcpyDeviceToHost, s));
}

void loadVoteKernels()
{
    cudaFuncAttributes a;
    CUDA_CHECK(cudaFuncGetAttributes(&a, voteKernel<float>));
    CUDA_CHECK(cudaFuncGetAttributes(&a, voteKernel<double>));
}

}  // namespace gigacheck::online_abft::cuda
