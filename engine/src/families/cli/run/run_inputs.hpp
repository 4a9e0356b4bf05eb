// gigacheck run with your own matrices: --load-a / --load-b read (the run's shape and type follow
// from them) and --save-c written (any run of --scheme blocked).
#pragma once

#include "families/cli/run/run_options.hpp"

#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/matrix.hpp"

#include <ostream>
#include <vector>

namespace gigacheck::run_verb {

struct GivenOperands {
    gigacheck::HostMatrix a, b;
    bool present() const { return !a.empty(); }
};

// Reads the files of --load-a / --load-b and fits options.config to them: the shape (a --shape
// that disagrees is refused) and, unless --type was given, the precision of the files (float32
// when both are '<f4', else float64). InputError with the file's name and the reason otherwise.
GivenOperands loadGivenOperands(RunOptions& options);

// What the run record keeps of the files (its "inputs" section, the report's "Your matrices" line);
// empty without --load-a / --load-b.
std::vector<gigacheck::InputMatrix> inputsOf(const RunOptions& options);

// After the run: writes C to --save-c (and says so on out unless --quiet); false (and nothing
// written or said: the caller's closing line tells) when the run did not finish, so C is not whole.
bool saveResult(const RunOptions& options, const gigacheck::HostMatrix& c, const std::string& status, std::ostream& out);

}  // namespace gigacheck::run_verb
