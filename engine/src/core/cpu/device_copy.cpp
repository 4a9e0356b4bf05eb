#include "core/cpu/device_copy.hpp"

#include "core/device_copy_check.hpp"

#include <algorithm>
#include <cstring>

namespace gigacheck::cpu {

void copyBetweenDevices(const OpContext& c, const OperandRegion& dst, const OperandRegion& src, std::size_t es)
{
    const BufferSpec& to = c.schedule.buffers.at(std::size_t(dst.slot));
    const BufferSpec& from = c.schedule.buffers.at(std::size_t(src.slot));
    auto* out = static_cast<char*>(c.buffers[std::size_t(dst.slot)]);
    const auto* in = static_cast<const char*>(c.buffers[std::size_t(src.slot)]);
    if (src.rows == 0 && dst.rows == 0) {
        std::memcpy(out, in, std::min(to.bytes, from.bytes));
        return;
    }
    checkCopyRegions(to, dst, from, src, es);
    for (std::int64_t r = 0; r < src.rows; ++r)
        std::memcpy(out + (std::size_t(dst.row + r) * std::size_t(to.ld) + std::size_t(dst.col)) * es,
                    in + (std::size_t(src.row + r) * std::size_t(from.ld) + std::size_t(src.col)) * es,
                    std::size_t(src.cols) * es);
}

}  // namespace gigacheck::cpu
