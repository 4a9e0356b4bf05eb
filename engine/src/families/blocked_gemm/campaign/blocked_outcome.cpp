// The outcome class of a blocked GEMM campaign run, from its record: the fault report, the
// verifications and repairs, the operand checks and the reference.
#include "gigacheck/blocked_gemm/campaign.hpp"

#include <algorithm>

namespace gigacheck {

Outcome classifyRun(const RunRecord& r)
{
    // A run that could not finish (a device failure, say) is the "crash" kind of DUE of NVBitFI.
    if (r.status != "ok")
        return Outcome::DetectedUncorrectable;
    const FaultReport& f = r.faults;
    // The end-to-end operand checks: a copy of A or B that failed its entry check, the C blocks
    // recomputed for it, and a host operand that could not be restored (exit 1).
    const bool operandAlarm = !r.operandChecks.mismatches.empty();
    const bool operandRecomputed = std::any_of(r.repairs.begin(), r.repairs.end(), [](const RepairEvent& e) {
        return e.operandCopy && e.outcome == RepairOutcome::CorrectedByRecompute;
    });
    const bool operandLost = r.operandChecks.hostBlocksUnrestorable > 0 ||
                             std::any_of(r.repairs.begin(), r.repairs.end(), [](const RepairEvent& e) {
                                 return e.operandCopy && e.outcome == RepairOutcome::Uncorrectable;
                             });
    // Every uncorrectable verdict followed by a repair of its block that ended right (a fault in a
    // buffer two products share, S4's A, can show in the other product's check).
    const auto repairedRight = [&](const VerifyEvent& v) {
        return std::any_of(r.repairs.begin(), r.repairs.end(), [&](const RepairEvent& e) {
            return e.blockI == v.block.i && e.blockJ == v.block.j && e.outcome != RepairOutcome::Uncorrectable;
        });
    };
    const bool anyUncorrectable = std::any_of(r.verifications.begin(), r.verifications.end(),
                                              [](const VerifyEvent& v) { return v.result.verdict == Verdict::Uncorrectable; });
    const bool allRepaired = anyUncorrectable && std::all_of(r.verifications.begin(), r.verifications.end(), [&](const VerifyEvent& v) {
        return v.result.verdict != Verdict::Uncorrectable || repairedRight(v);
    });
    const bool recomputed = std::any_of(r.repairs.begin(), r.repairs.end(), [](const RepairEvent& e) {
        return e.outcome == RepairOutcome::CorrectedByRecompute;
    });
    // ABFT gave up on a block and nothing repaired it afterwards: the run ends at exit 1, whatever
    // the reference says (the recompute repair, when it exists, counts in correctedByRecompute).
    const bool gaveUp =
        (f.blocksUncorrectable > 0 && f.correctedByRecompute == 0 && !operandRecomputed && !allRepaired) || operandLost;
    const bool alarm =
        f.blocksCorrected > 0 || f.blocksUncorrectable > 0 || f.correctedByRecompute > 0 || operandAlarm;
    if (f.injected == 0) {
        if (alarm || f.falsePositives > 0)
            return Outcome::FalseAlarm;
        // Nothing injected, nothing flagged, yet wrong: the checks missed a real error (a bug).
        return r.reference.passed ? Outcome::Masked : Outcome::SilentCorruption;
    }
    if (gaveUp)
        return Outcome::DetectedUncorrectable;
    if (!r.reference.passed)
        return Outcome::SilentCorruption;
    if (f.falsePositives > 0)
        return Outcome::FalseAlarm;
    if (f.correctedByRecompute > 0 || operandRecomputed || (recomputed && alarm))
        return Outcome::CorrectedByRecompute;
    if (f.detected > 0 || f.corrected > 0)
        return Outcome::Corrected;
    return Outcome::Masked;
}

}  // namespace gigacheck
