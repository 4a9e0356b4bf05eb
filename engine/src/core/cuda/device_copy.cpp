#include "core/cuda/device_copy.hpp"

#include "core/cuda/check.hpp"
#include "core/device_copy_check.hpp"

#include <algorithm>

namespace gigacheck::cuda {

void copyBetweenDevices(const OpContext& c, const OperandRegion& dst, const OperandRegion& src, std::size_t es,
                        cudaStream_t s)
{
    const BufferSpec& to = c.schedule.buffers.at(std::size_t(dst.slot));
    const BufferSpec& from = c.schedule.buffers.at(std::size_t(src.slot));
    const int toGpu = c.ordinals.at(std::size_t(to.device)), fromGpu = c.ordinals.at(std::size_t(from.device));
    char* out = static_cast<char*>(c.buffers[std::size_t(dst.slot)]);
    const char* in = static_cast<const char*>(c.buffers[std::size_t(src.slot)]);
    if (src.rows == 0 && dst.rows == 0) {
        const std::size_t bytes = std::min(to.bytes, from.bytes);
        if (toGpu == fromGpu)
            CUDA_CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, s));
        else
            CUDA_CHECK(cudaMemcpyPeerAsync(out, toGpu, in, fromGpu, bytes, s));
        return;
    }
    checkCopyRegions(to, dst, from, src, es);
    out += (std::size_t(dst.row) * std::size_t(to.ld) + std::size_t(dst.col)) * es;
    in += (std::size_t(src.row) * std::size_t(from.ld) + std::size_t(src.col)) * es;
    const std::size_t width = std::size_t(src.cols) * es, rows = std::size_t(src.rows);
    if (toGpu == fromGpu) {
        CUDA_CHECK(cudaMemcpy2DAsync(out, std::size_t(to.ld) * es, in, std::size_t(from.ld) * es, width, rows,
                                     cudaMemcpyDeviceToDevice, s));
        return;
    }
    cudaMemcpy3DPeerParms p{};
    p.srcPtr = make_cudaPitchedPtr(const_cast<char*>(in), std::size_t(from.ld) * es, width, rows);
    p.srcDevice = fromGpu;
    p.dstPtr = make_cudaPitchedPtr(out, std::size_t(to.ld) * es, width, rows);
    p.dstDevice = toGpu;
    p.extent = make_cudaExtent(width, rows, 1);
    CUDA_CHECK(cudaMemcpy3DPeerAsync(&p, s));
}

}  // namespace gigacheck::cuda
