// PristineOperands: the bench's inputs made once, copied back before every row.
#include "families/strassen/bench/pristine_operands.hpp"

#include <cstring>

namespace gigacheck::strassen {

namespace {
HostMatrix copyOf(const HostMatrix& m)
{
    HostMatrix out(m.precision(), m.rows(), m.cols());
    std::memcpy(out.data(), m.data(), m.bytes());
    return out;
}
}  // namespace

PristineOperands::PristineOperands(const StrassenConfig& config, Backend& backend)
{
    makeStrassenInputs(config, backend, a_, b_);
    pristineA_ = copyOf(a_);
    pristineB_ = copyOf(b_);
}

void PristineOperands::refresh()
{
    std::memcpy(a_.data(), pristineA_.data(), a_.bytes());
    std::memcpy(b_.data(), pristineB_.data(), b_.bytes());
}

}  // namespace gigacheck::strassen
