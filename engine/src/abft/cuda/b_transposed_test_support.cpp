// GPU test support of checksumBTransposed (see b_transposed_test_support.hpp).
#include "abft/cuda/b_transposed_test_support.hpp"

#include "abft/cuda/abft_device.hpp"
#include "core/cuda/check.hpp"
#include "core/cuda/resources.hpp"

#include <cstring>

namespace gigacheck::cuda {

int multiprocessorsOfDevice()
{
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms;
}

BTransposedRun checksumBTransposedOnDevice(const HostMatrix& b, std::int64_t ldb, std::int64_t ldbt)
{
    const Index depth = b.rows(), cols = b.cols();
    DeviceBuffer db(std::size_t(depth * ldb) * 4), dbt(std::size_t(cols * ldbt) * 4);
    CUDA_CHECK(cudaMemset(db.get(), 0, db.bytes()));
    CUDA_CHECK(cudaMemset(dbt.get(), 0, dbt.bytes()));
    CUDA_CHECK(cudaMemcpy2D(db.get(), std::size_t(ldb) * 4, b.data(), std::size_t(cols) * 4, std::size_t(cols) * 4,
                            std::size_t(depth), cudaMemcpyHostToDevice));
    BTransposedRun run;
    run.band = checksumBTransposedBand(db.as<float>(), depth, cols, ldb, dbt.as<float>(), ldbt);
    checksumBTransposed(db.as<float>(), depth, cols, ldb, dbt.as<float>(), ldbt, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> after(std::size_t(depth * ldb));
    CUDA_CHECK(cudaMemcpy(after.data(), db.get(), db.bytes(), cudaMemcpyDeviceToHost));
    run.bUnchanged = true;
    for (Index k = 0; k < depth; ++k) {
        run.bUnchanged = run.bUnchanged &&
                         std::memcmp(&after[std::size_t(k * ldb)], b.as<float>() + k * cols, std::size_t(cols) * 4) == 0;
        run.checksum.push_back(after[std::size_t(k * ldb + cols)]);
        run.norm.push_back(after[std::size_t(k * ldb + cols + 1)]);
    }
    run.bt.resize(std::size_t(cols * depth));
    CUDA_CHECK(cudaMemcpy2D(run.bt.data(), std::size_t(depth) * 4, dbt.get(), std::size_t(ldbt) * 4,
                            std::size_t(depth) * 4, std::size_t(cols), cudaMemcpyDeviceToHost));
    return run;
}

}  // namespace gigacheck::cuda
