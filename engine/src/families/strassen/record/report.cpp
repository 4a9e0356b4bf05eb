// The text report of a strassen run (CLI); its record (JSON) is record_json.cpp.
#include "gigacheck/strassen.hpp"

#include "families/strassen/ops.hpp"
#include "families/strassen/run/verify.hpp"

#include <algorithm>
#include <array>
#include <iomanip>
#include <map>
#include <sstream>

namespace gigacheck {

namespace {

// Seconds per (level, stage) of the compute spans: the seed's Table 3.2 for this run.
std::map<std::pair<int, int>, double> stageTimes(const StrassenResult& r)
{
    std::map<std::pair<int, int>, double> t;
    for (const Span& s : r.spans)
        if (s.queue == Queue::Compute)
            t[{s.block.i, s.block.j}] += s.end - s.start;
    return t;
}

}  // namespace

std::string formatStrassenReport(const StrassenResult& r)
{
    std::ostringstream o;
    const StrassenConfig& c = r.config;
    o << "STRASSEN " << shapeText(c.shape) << "  variant " << toString(c.variant) << "  levels " << r.levels
      << (r.levels != c.levels ? " (of " + std::to_string(c.levels) + " asked: a dimension is smaller than 2^L)" : "")
      << "  type " << (c.tf32 ? "tf32" : std::string(toString(c.precision)));
    // What ran: the CPU has OpenBLAS leaves only, and emulates TF32 (operands rounded to TF32).
    const bool cpu = r.devices.front().backend == BackendKind::Cpu;
    if (c.tf32 && cpu)
        o << " (emulated: operands rounded to TF32, FP32 products)";
    if (c.multiTargetKernel)
        o << (cpu ? "  leaves: OpenBLAS, one call per target (--leaf kernel is CUDA's)" : "  leaves: multi-target kernel");
    o << "\n";
    if (c.cutlassLeaves) {
        o << "leaves     " << (cpu ? "CUTLASS TF32 emulated by OpenBLAS: " : "CUTLASS sm_90a TF32: ") << r.cutlassLeafGemms
          << " leaf GEMMs";
        if (r.fallbackLeafGemms > 0)
            o << "; cuBLAS TF32: " << r.fallbackLeafGemms << " (" << r.leafFallbackReason << ")";
        o << "\n";
    }
    o << "device     " << r.devices.front().name << "\n";
    o << "core       " << shapeText(r.core);
    if (!(r.core == c.shape))
        o << "  (the rest peeled: plain GEMM updates of the fringe, no extra memory)";
    o << "\n";
    if (c.devices > 1 || c.distribute)
        o << "devices    " << c.devices << " (" << toString(c.decomposition)
          << " decomposition, one level, task t on device t mod G, each task "
          << (r.levels > 1 ? std::to_string(r.levels - 1) + " level(s) of " + std::string(toString(c.variant)) + " on its device"
                           : std::string("one GEMM"))
          << ")"
          << (r.placement.empty() ? std::string() : ": " + r.placement) << "\n";
    o << "ops        " << r.products << " products (" << r.gemmCalls << " GEMM calls), " << r.additions
      << " in-place block sums";
    if (r.additionsBeside > 0 && r.devices.front().backend == BackendKind::Cuda)
        o << " (" << r.additionsBeside << " of them beside the products, on side compute streams)";
    else if (r.additionsBeside > 0)
        o << " (" << r.additionsBeside << " of them free to run beside the products; the CPU runs them in line)";
    else if (r.additions > 0 && !c.sumsBeside)
        o << " (in line with the products: --sums inline)";
    o << "\n";
    o << "memory     A, B, C " << formatBytes(double(r.operandBytes)) << "; peak " << formatBytes(double(r.peakDeviceBytes))
      << "; extra " << r.extraBytes << " bytes\n";
    o << std::setprecision(4);
    o << "time       " << r.seconds * 1e3 << " ms (compute ops)";
    if (c.exactRestore)
        o << "; exact restore " << r.restoreSeconds * 1e3 << " ms";
    o << "\n";
    o << "recovery   A: " << r.recovery.changedA << " elements changed, max " << r.recovery.maxUlpsA << " ulps; B: "
      << r.recovery.changedB << " changed, max " << r.recovery.maxUlpsB << " ulps"
      << (c.exactRestore ? " (restored from the host copy)" : "") << "\n";
    if (c.checkLeaves)
        o << "leaves     " << r.leavesChecked << " leaf products checked, each right after it ran; largest residual "
          << r.leafWorstRatio << " x its round-off threshold" << (r.leafWorstRatio > 1 ? " (caught: see checks)" : "") << "\n";
    if (r.relErrorC >= 0) {
        o << "error of C max |C - C_ref| = " << r.maxErrorC << " (" << r.relErrorC << " of max |C_ref|, FP64 reference";
        if (r.nonFiniteC > 0)
            o << "; " << r.nonFiniteC << " cells NaN / Inf";
        if (r.referenceWorstRatio >= 0)
            o << "; " << r.referenceMismatches << " cells beyond its tolerance, worst " << r.referenceWorstRatio
              << " x tolerance";
        o << ")\n";
    }
    if (r.cWorstCleanRatio >= 0)
        o << "C checks   largest clean residual " << r.cWorstCleanRatio
          << " x its round-off threshold (row and column checksums of C against A (B e) and (e^T A) B)\n";
    if (r.cDetectionFloor >= 0) {
        o << "C sees     any one cell off by more than " << r.cDetectionFloor;
        if (r.cMaxAbs > 0)
            o << " (" << r.cDetectionFloor / r.cMaxAbs << " x max |C|)";
        o << "; a smaller error is left to the FP64 reference's per-cell tolerance"
          << (r.relErrorC >= 0 ? "" : " (not run)") << "\n";
        if (strassen::checksTooWeak(r.cDetectionFloor, r.cMaxAbs))
            o << "           (past 1 % of max |C|: with --reference auto the reference runs at any size)\n";
    }
    if (r.referenceFloor >= 0) {
        o << "reference  sees any one cell off by more than " << r.referenceFloor;
        if (r.cMaxAbs > 0)
            o << " (" << r.referenceFloor / r.cMaxAbs << " x max |C|)";
        o << ": the largest of its per-cell tolerances\n";
    }
    const auto stages = stageTimes(r);
    if (!stages.empty()) {
        o << "stages     (level, stage: ms)";
        for (const auto& [key, sec] : stages)
            o << "  " << key.first << "." << key.second << ": " << sec * 1e3;
        o << "\n";
    }
    for (std::size_t i = 0; i < c.faults.size(); ++i) {
        const StrassenFault& f = c.faults[i];
        o << "fault      injected at " << toString(f);
        if (!f.deltaGiven && c.faultModel.model == FaultModel::BitFlip) {
            o << ", bit " << resolvedBit(c.faultModel.bit, c.precision);
            if (c.faultModel.bit2 >= 0)
                o << " and bit " << c.faultModel.bit2;
            o << " flipped";
        }
        // What the cell held before and after (faults into C and leaf products; injection_event.hpp).
        for (const InjectEvent& e : r.injections)
            if (e.injection.block.k == int(i))
                o << ": " << e.injection.before << " -> " << e.injection.after;
        o << "\n";
    }
    for (const StrassenCheck& k : r.checks) {
        o << "check " << k.where << "    " << k.verdict;
        // Only what is known: a leaf or a column recompute names a column, an operand row a row.
        if (k.row >= 0 && k.col >= 0)
            o << " at row " << k.row << ", col " << k.col;
        else if (k.row >= 0)
            o << " at row " << k.row;
        else if (k.col >= 0)
            o << " at col " << k.col;
        if (!k.detail.empty())
            o << ": " << k.detail;
        o << "\n";
    }
    if (!r.error.empty())
        o << "error      " << r.error << "\n";
    int repairs = 0;
    for (const StrassenCheck& k : r.checks)
        repairs += k.verdict == "corrected" || k.verdict == "recomputed";
    const std::string by = r.verifiedBy == "checksums"   ? "C's checksums"
                           : r.verifiedBy == "reference" ? "the FP64 reference"
                                                         : "C's checksums and the FP64 reference";
    const std::string outcome = strassenOutcome(r);
    if (outcome == "ok")
        o << "verdict    VERIFIED by " << by
          << (repairs > 0 ? " (C right after " + std::to_string(repairs) + " repair(s), see checks)" : std::string()) << "\n";
    else if (outcome == "not_verified")
        o << "verdict    NOT VERIFIED: " << strassenNotVerifiedReason(r) << "; C may be wrong\n";
    else if (outcome == "uncorrectable" && std::any_of(r.checks.begin(), r.checks.end(), [](const StrassenCheck& k) { return k.verdict == "missed"; }))
        o << "verdict    C IS WRONG: injected faults that C's checksums did not see (check c above)\n";
    else if (outcome == "uncorrectable")
        o << "verdict    UNCORRECTABLE: C is wrong (seen by " << by << ")\n";
    else
        o << "verdict    " << outcome << "\n";
    return o.str();
}

std::string strassenNotVerifiedReason(const StrassenResult& r)
{
    const auto skipped = std::find_if(r.checks.begin(), r.checks.end(), [](const StrassenCheck& k) {
        return k.where == "reference" && k.verdict == "skipped";
    });
    if (r.config.verify) {  // C's checks ran, but too coarse to vouch for each cell (settleVerdict)
        std::ostringstream o;
        o << "C's checks see only a cell off by more than " << r.cDetectionFloor << " ("
          << (r.cMaxAbs > 0 ? r.cDetectionFloor / r.cMaxAbs : 0.0) << " x max |C|) and "
          << (skipped != r.checks.end() ? "the FP64 reference could not run: " + skipped->detail
                                        : std::string("the FP64 reference is off (--reference none; auto runs it here)"));
        return o.str();
    }
    std::string why = "no check ran: C's checksums off (--no-abft)";
    if (skipped != r.checks.end())
        return why + " and the FP64 reference could not run: " + skipped->detail;
    if (!r.config.reference)
        return why + " and the FP64 reference off (--reference none)";
    return why + " and the FP64 reference left out past 2^34 multiply-adds (--reference auto; --reference full runs it)";
}

}  // namespace gigacheck
