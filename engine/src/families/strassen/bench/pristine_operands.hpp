// A and B shared by the rows of a bench. runStrassenOn leaves them as the run recovered them, and
// floating-point recovery rounds ((A0 + A3) - A3 is not always A0), so a row run on the previous
// row's A and B starts from already-rounded inputs and reports other recovery figures than the
// same recipe on fresh inputs (one bench: accumulate L1 with 20 053 094 elements of A changed, one
// row later the same recipe in line with 17 053). Every row starts from a copy of the inputs as made.
#pragma once

#include "gigacheck/strassen.hpp"

namespace gigacheck::strassen {

class PristineOperands {
public:
    // The inputs config asks for, in the backend's host memory (pinned on CUDA), and a copy of each.
    PristineOperands(const StrassenConfig& config, Backend& backend);

    // A and B as made, copied back into the run's matrices: call before every row.
    void refresh();
    HostMatrix& a() { return a_; }
    HostMatrix& b() { return b_; }

private:
    HostMatrix a_, b_;
    HostMatrix pristineA_, pristineB_;
};

}  // namespace gigacheck::strassen
