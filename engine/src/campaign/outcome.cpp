// Outcome classes of one run and the Wilson interval of their fractions.
#include "gigacheck/campaign.hpp"
#include "campaign/family_campaign.hpp"

#include <algorithm>
#include <cmath>

namespace gigacheck {

std::string_view toString(Outcome o)
{
    switch (o) {
    case Outcome::Masked: return "masked";
    case Outcome::Corrected: return "corrected";
    case Outcome::CorrectedByRecompute: return "corrected-by-recompute";
    case Outcome::DetectedUncorrectable: return "due";
    case Outcome::SilentCorruption: return "sdc";
    case Outcome::FalseAlarm: return "false-alarm";
    }
    return "?";
}

std::string_view describe(Outcome o)
{
    switch (o) {
    case Outcome::Masked: return "masked";
    case Outcome::Corrected: return "corrected";
    case Outcome::CorrectedByRecompute: return "corrected by recompute";
    case Outcome::DetectedUncorrectable: return "detected uncorrectable (DUE)";
    case Outcome::SilentCorruption: return "silent data corruption (SDC)";
    case Outcome::FalseAlarm: return "false alarm";
    }
    return "?";
}

Outcome outcomeFromString(std::string_view s)
{
    for (Outcome o : kOutcomes)
        if (toString(o) == s)
            return o;
    throw InputError("unknown outcome '" + std::string(s) +
                     "' (expected masked, corrected, corrected-by-recompute, due, sdc or false-alarm)");
}

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

Outcome judgeRun(const RunJudgement& j)
{
    // The same order as classifyRun: a failed run, then what nothing was injected into, then the
    // run's own give-up, then the reference against a verdict of correct.
    if (j.failed)
        return Outcome::DetectedUncorrectable;
    if (j.injected == 0) {
        if (j.alarm)
            return Outcome::FalseAlarm;
        return j.referencePassed ? Outcome::Masked : Outcome::SilentCorruption;
    }
    if (j.gaveUp)
        return Outcome::DetectedUncorrectable;
    if (!j.referencePassed)
        return Outcome::SilentCorruption;
    if (j.recomputed)
        return Outcome::CorrectedByRecompute;
    return j.alarm ? Outcome::Corrected : Outcome::Masked;
}

Interval wilsonInterval(std::int64_t successes, std::int64_t trials, double z)
{
    if (trials <= 0)
        return {0.0, 1.0};
    const double n = double(trials);
    const double p = double(successes) / n;
    const double z2 = z * z;
    const double denominator = 1.0 + z2 / n;
    const double centre = (p + z2 / (2 * n)) / denominator;
    const double half = z / denominator * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    // At the edges the bound is exact: rounding must not leave 3e-18 where 0 is meant.
    return {successes <= 0 ? 0.0 : std::max(0.0, centre - half), successes >= trials ? 1.0 : std::min(1.0, centre + half)};
}

}  // namespace gigacheck
