// The text report of an online ABFT / offline ABFT / TMR run.
#include "gigacheck/online_abft.hpp"
#include "families/online_abft/run/missed_faults.hpp"

#include "core/printf_number.hpp"

#include <sstream>

namespace gigacheck {

namespace {

std::string number(double v, const char* format = "%.6g") { return printfNumber(format, v); }

// FP32 values multiplied with rounded inputs (--gemm cublas-tf32 / cutlass-tf32, --type bf16 / f16).
std::string inputsNote(const OnlineConfig& c)
{
    if (c.precision != Precision::F32)
        return {};
    if (c.gemm == GemmVariant::Tf32x3)
        return ", FP32-accurate products from three TF32 products (tf32x3)";
    switch (inputFormatOf(c.gemm)) {
    case InputFormat::Tf32: return ", products of TF32 inputs";
    case InputFormat::Bf16: return ", products of BF16 inputs (--type bf16), FP32 accumulation";
    case InputFormat::F16: return ", products of FP16 inputs (--type f16), FP32 accumulation";
    case InputFormat::F32: break;
    }
    return {};
}

std::string stepName(int step) { return step < 0 ? std::string("encoding") : "step " + std::to_string(step); }

}  // namespace

std::string formatOnlineReport(const OnlineRecord& r)
{
    const OnlineConfig& c = r.config;
    std::ostringstream o;
    o << "GIGACHECK online ABFT family\n";
    o << "  A: " << c.shape.m << " x " << c.shape.n << "  B: " << c.shape.n << " x " << c.shape.q << " -> C: "
      << c.shape.m << " x " << c.shape.q << "  (" << toString(c.precision) << inputsNote(c) << ")\n";
    o << "  scheme: " << toString(c.scheme);
    if (c.scheme != Scheme::Tmr) {
        o << ", panel width " << c.panelWidth() << ", " << r.steps << " step(s), ";
        o << (c.checkEvery == 0 || c.scheme == Scheme::Offline ? std::string("checked after the last step only")
                                                                : "checked every " + std::to_string(c.checkEvery) + " step(s)");
        o << " (" << r.checkSteps.size() << " check(s)), " << c.checksums << " checksum vector(s) per axis";
        if (r.columnBlocks > 1)
            o << ";\n  C in " << r.columnBlocks << " column blocks, each with its own checksum column (q + b), built "
              << "and checked on its own stream: a check per block and step";
        if (r.mergedSteps && r.panelProducts < r.steps)
            o << ";\n  the steps between checks merged: " << r.panelProducts << " GEMM(s)"
              << (r.columnBlocks > 1 ? " per column block" : "") << " for " << r.steps
              << " step(s) (--merge-steps off: one per step)";
    }
    o << "\n  device: " << r.devices.front().name << " (" << toString(r.devices.front().backend) << ")\n";
    o << "  execute time: " << number(r.metrics.executeSeconds * 1e3, "%.3f") << " ms";
    if (r.recomputed)
        o << " + recompute " << number(r.recomputeSeconds * 1e3, "%.3f") << " ms";
    o << "\n";
    if (!r.error.empty())
        o << "  error: " << r.error << "\n";

    for (const InjectEvent& e : r.injections) {
        const Injection& inj = e.injection;
        o << "  fault: " << toString(inj.target) << " (" << inj.localRow << ", " << inj.localCol << ") after step "
          << inj.block.k;
        if (inj.model == FaultModel::BitFlip)
            o << ", bit " << inj.bit << (inj.bit2 >= 0 ? "+" + std::to_string(inj.bit2) : std::string()) << " flipped";
        o << ": " << number(inj.before) << " -> " << number(inj.after) << "\n";
    }
    // An input fault of a bit-flip run: its bits, and the change they made.
    const std::string inputBits =
        c.model != FaultModel::BitFlip
            ? std::string()
            : ", bit " + std::to_string(c.bit >= 0 ? c.bit : (c.precision == Precision::F64 ? 62 : 30)) +
                  (c.bit2 >= 0 ? "+" + std::to_string(c.bit2) : std::string()) + " flipped";
    for (const OnlineFault& f : r.appliedInputFaults)
        o << "  fault: input " << toString(f.target) << " (" << f.row << ", " << f.col << ") "
          << (f.step.value_or(-1) < 0 ? std::string("before its checksums") : "after step " + std::to_string(*f.step))
          << inputBits << ", delta " << number(f.delta.value_or(0)) << "\n";

    int clean = 0, corrected = 0, uncorrectable = 0;
    for (const VerifyEvent& e : r.verifications) {
        const VerifyResult& v = e.result;
        switch (v.verdict) {
        case Verdict::Clean: ++clean; continue;
        case Verdict::Corrected: ++corrected; break;
        case Verdict::Uncorrectable: ++uncorrectable; break;
        }
        o << "  check after step " << e.block.k;
        if (r.columnBlocks > 1)
            o << " (column block " << e.block.j << ")";
        o << ": " << toString(v.verdict) << " (" << v.mismatchRows.size()
          << " row(s), " << v.mismatchCols.size() << " column(s) mismatched";
        if (!v.corrections.empty())
            o << ", " << v.corrections.size() << " cell(s) corrected";
        if (v.checksumsRecomputed)
            o << ", checksums rebuilt";
        o << ")\n";
        for (const Correction& x : v.corrections)
            o << "    C(" << x.row << ", " << x.col << "): " << number(x.before) << " -> " << number(x.after) << "\n";
    }
    for (const InputFaultReport& f : r.inputFaults) {
        o << "  input fault in " << toString(f.operand);
        if (f.row >= 0)
            o << " (" << f.row << ", " << f.col << "), delta " << number(f.delta);
        o << ": found at " << stepName(f.caughtAtStep);
        if (f.beforeChecksum)
            o << " (struck before its checksums: the device copy differs from the sums taken where it was made)";
        else if (f.cellsOff > 0)
            o << ", a whole " << (f.operand == OnlineTarget::A ? "row" : "column") << " of C (" << f.cellsOff
              << " cells) was off";
        if (f.corrected)
            o << "; corrected\n";
        else if (f.belowRoundoff)
            o << "; moved by less than the round-off of its line sums (seen on one axis only): too small to "
                 "locate or to change C beyond its checks, left to them\n";
        else
            o << "; not locatable\n";
    }
    if (c.scheme != Scheme::Tmr)
        o << "  checks: " << clean << " clean, " << corrected << " corrected, " << uncorrectable << " uncorrectable\n";
    if (!r.panelGemm.empty())
        o << "  panel GEMM: " << r.panelGemm << "\n";
    if (r.recomputed)
        o << "  recompute: the whole product again, " << (r.recomputeClean ? "clean" : "NOT clean") << "\n";
    if (r.vote) {
        o << "  vote: " << r.vote->cellsOutvoted << " cell(s) outvoted, " << r.vote->cellsWithoutMajority
          << " without a majority";
        if (r.vote->disputes() > 0)
            o << "; " << r.vote->cellsRecomputed << " of the " << r.vote->disputes()
              << " disputed cell(s) computed again from A and B (the majority was wrong in " << r.vote->majorityOverruled
              << ")" << (r.vote->settled() ? "" : "; the others could not be settled");
        o << "\n";
        for (const auto& [i, j] : r.vote->noMajority)
            o << "    no majority at C(" << i << ", " << j << ")\n";
    }
    const ReferenceCheck& ref = r.reference;
    o << "  reference: " << toString(ref.mode);
    if (ref.mode != ReferenceMode::None)
        o << ", " << ref.rowsChecked << " rows, " << ref.mismatches << " mismatch(es), max error / tolerance "
          << number(ref.maxRelError, "%.3g") << (ref.passed ? " (passed)" : " (FAILED)");
    o << "\n";
    const bool fullReference = ref.mode == ReferenceMode::Full;
    const std::string own = r.config.scheme == Scheme::Tmr ? "the TMR vote" : "the ABFT checks";
    if (r.notVerified()) {
        o << "  verdict: not verified (no two replicas agreed at " << r.vote->cellsWithoutMajority
          << " cell(s), and no reference of every cell checked their recomputed values)\n";
        return o.str();
    }
    if (const std::string missed = online_abft::missedFaultsWords(r); !missed.empty()) {
        o << "  verdict: C IS WRONG: " << missed << "\n";
        return o.str();
    }
    o << "  verdict: " << (r.verifiedCorrect() ? "verified correct" : "NOT verified correct") << " (checked by " << own
      << (fullReference ? " and the full reference" : ref.mode == ReferenceMode::Sample ? " and a sampled reference" : "")
      << ")\n";
    return o.str();
}

}  // namespace gigacheck
