#include "core/device_copy_check.hpp"

namespace gigacheck {

namespace {

bool inside(const BufferSpec& b, const OperandRegion& r, std::size_t es)
{
    if (r.row < 0 || r.col < 0 || r.cols > b.ld || r.col > b.ld - r.cols)
        return false;
    const std::size_t lastByte = ((std::size_t(r.row + r.rows - 1) * std::size_t(b.ld)) + std::size_t(r.col + r.cols)) * es;
    return lastByte <= b.bytes;
}

}  // namespace

void checkCopyRegions(const BufferSpec& to, const OperandRegion& dst, const BufferSpec& from, const OperandRegion& src,
                      std::size_t es)
{
    if (src.rows <= 0 || src.cols <= 0 || dst.rows != src.rows || dst.cols != src.cols)
        throw BackendError("copy between devices: region " + std::to_string(src.rows) + " x " + std::to_string(src.cols) +
                           " of " + from.name + " does not match " + std::to_string(dst.rows) + " x " +
                           std::to_string(dst.cols) + " of " + to.name);
    if (!inside(from, src, es) || !inside(to, dst, es))
        throw BackendError("copy between devices: a region leaves buffer " + from.name + " or " + to.name);
}

}  // namespace gigacheck
