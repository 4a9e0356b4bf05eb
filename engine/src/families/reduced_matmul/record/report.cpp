// The text report of one reduced matmul run (`gigacheck reduced`).
#include "gigacheck/reduced_matmul.hpp"

#include "core/printf_number.hpp"
#include "families/reduced_matmul/record/record_validate.hpp"

#include <string>

namespace gigacheck::reduced_matmul {

std::string report(const Record& r)
{
    const Counts& c = r.counts;
    const std::string lib = r.backend == "cuda" ? "cuBLAS" : "OpenBLAS";
    const std::int64_t n = r.config.n;
    std::string s;
    s += "reduced matmul N = " + std::to_string(n) + " (C " + std::to_string(n / 2) + "x" + std::to_string(n / 2) + "), " +
         std::string(gigacheck::toString(r.config.precision)) + ", variant " + std::string(toString(r.config.variant)) +
         " on " + r.backend + " (" + r.deviceName() + ")\n";
    if (r.status == "cancelled") {  // a partial record: what ran, nothing timed or checked
        return s + "cancelled   the run was stopped after " + std::to_string(r.spans.size()) + " of its " +
               std::to_string(plannedOps(r.config)) + " ops (spans in the record): not timed, not checked\n";
    }
    s += "time        " + printfNumber("%.4f ms", r.kernelMs) + " (median of " + std::to_string(plannedCalls(r.config) - 1) +
         " calls after a warm-up, from the executor's spans)\n";
    s += "rate        " + printfNumber("%.1f GFLOP/s", r.gflops) + " (2 (N/2)^2 N flops of the reduced product)\n";
    if (r.libraryMs > 0)
        s += "library     " + lib + " GEMM alone on the reduced shape " + printfNumber("%.4f ms", r.libraryMs) + ": this kernel takes " +
             printfNumber("%.2fx", r.kernelMs / r.libraryMs) + " its time\n";
    s += "copies      " + printfNumber("A and B in %.3f ms", r.h2dMs) + printfNumber(", C out %.3f ms", r.d2hMs) + " (" +
         std::to_string(r.spans.size()) + " spans in the record)\n";
    s += "counts      " + printfNumber("%.4g", c.multiplications) + " multiplications, " + printfNumber("%.0f", c.loadsPerThread) +
         " global loads per thread (" + std::to_string(c.threads) + " threads), " + printfNumber("%.4g", c.loadBytesRequested) +
         " B requested, " + printfNumber("%.4g", c.footprintBytes) + " B footprint\n";
    s += "verdict     " + std::string(r.verified ? "correct" : "WRONG") + ": " + std::to_string(r.checked - r.wrong) + " of " +
         std::to_string(r.checked) + " checked elements within their round-off tolerance (at most " + printfNumber("%.2e", r.tolerance) +
         " of the magnitude; max relative error " +
         printfNumber("%.2e", r.maxRelError) + ")\n";
    return s;
}

}  // namespace gigacheck::reduced_matmul
