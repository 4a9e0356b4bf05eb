// GPU test support of addRowSumPartials (see row_sum_partials_test_support.hpp).
#include "gemm/cuda/row_sum_partials_test_support.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/resources.hpp"
#include "gemm/cuda/row_sum_partials.hpp"

namespace gigacheck::cuda {

namespace {

template <class T> DeviceBuffer upload(const std::vector<T>& host)
{
    DeviceBuffer d(host.size() * sizeof(T));
    if (!host.empty())
        CUDA_CHECK(cudaMemcpy(d.get(), host.data(), d.bytes(), cudaMemcpyHostToDevice));
    return d;
}

template <class T> std::vector<T> download(const DeviceBuffer& d, std::size_t count)
{
    std::vector<T> host(count);
    if (count)
        CUDA_CHECK(cudaMemcpy(host.data(), d.get(), count * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
}

}  // namespace

RowSumPartialsRun addRowSumPartialsOnDevice(const RowSumPartialsCase& x)
{
    DeviceBuffer partials = upload(x.partials), rowSums = upload(x.rowSums), colSums = upload(x.colSums),
                 c = upload(x.c), splitSums(std::size_t(x.rows) * sizeof(float));
    PinnedBuffer pair(2 * sizeof(double));
    pair.as<double>()[0] = pair.as<double>()[1] = -1.0;  // untouched where no fault is applied
    FaultAsComputed fault;
    fault.row = x.faultRow;
    fault.col = x.faultCol;
    fault.bitFlip = x.bitFlip;
    fault.bit = x.bit;
    fault.bit2 = x.bit2;
    fault.delta = x.delta;
    fault.beforeAfter = pair.as<double>();
    const FaultCell at{c.as<float>(), x.cols, colSums.as<double>()};
    if (x.splitTile >= 0 && x.splitTile < x.tiles)
        addRowSumPartialsSplit(partials.as<float>(), x.tiles, x.splitTile, x.width, x.rows, rowSums.as<double>(),
                               splitSums.as<float>(), 1, nullptr, fault, at);
    else
        addRowSumPartials(partials.as<float>(), x.tiles, x.width, x.rows, rowSums.as<double>(), nullptr, fault, at);
    CUDA_CHECK(cudaDeviceSynchronize());
    RowSumPartialsRun run;
    run.rowSums = download<double>(rowSums, x.rowSums.size());
    run.colSums = download<double>(colSums, x.colSums.size());
    run.c = download<float>(c, x.c.size());
    if (x.splitTile >= 0 && x.splitTile < x.tiles)
        run.splitSums = download<float>(splitSums, std::size_t(x.rows));
    run.before = pair.as<double>()[0];
    run.after = pair.as<double>()[1];
    return run;
}

}  // namespace gigacheck::cuda
