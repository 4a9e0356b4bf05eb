// Applying one injection to a stored value: a delta, or a flipped bit of the float / double.
#include "gigacheck/faults.hpp"

#include <bit>
#include <cstdint>
#include <string>

namespace gigacheck {

double applyFault(const Injection& inj, double value, Precision p)
{
    const bool f64 = p == Precision::F64;
    if (inj.model == FaultModel::Delta)
        return f64 ? value + inj.delta : double(float(value) + float(inj.delta));

    const int bits = f64 ? 64 : 32;
    const auto outside = [&](int bit) {
        throw InputError("bit " + std::to_string(bit) + " is outside an " + std::string(toString(p)) +
                         " element (bits 0-" + std::to_string(bits - 1) + ")");
    };
    if (inj.bit < 0 || inj.bit >= bits)
        outside(inj.bit);
    if (inj.bit2 < -1 || inj.bit2 >= bits)  // -1: no second bit
        outside(inj.bit2);
    // Two bits of one word (bit2 >= 0): both flipped at once.
    const std::uint64_t mask = (std::uint64_t(1) << inj.bit) | (inj.bit2 >= 0 ? std::uint64_t(1) << inj.bit2 : 0);
    if (f64)
        return std::bit_cast<double>(std::bit_cast<std::uint64_t>(value) ^ mask);
    return double(std::bit_cast<float>(std::bit_cast<std::uint32_t>(float(value)) ^ std::uint32_t(mask)));
}

}  // namespace gigacheck
