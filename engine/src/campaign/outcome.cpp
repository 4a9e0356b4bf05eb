// Outcome classes of one run and the Wilson interval of their fractions.
#include "gigacheck/campaign.hpp"
#include "campaign/family_campaign.hpp"

#include <algorithm>
#include <cmath>

namespace gigacheck {

namespace {
// The stable names (campaign files, CSV) and the report's words for each outcome.
constexpr EnumName<Outcome> kOutcomeNames[] = {
    {Outcome::Masked, "masked", "masked"},
    {Outcome::Corrected, "corrected", "corrected"},
    {Outcome::CorrectedByRecompute, "corrected-by-recompute", "corrected by recompute"},
    {Outcome::DetectedUncorrectable, "due", "detected uncorrectable (DUE)"},
    {Outcome::SilentCorruption, "sdc", "silent data corruption (SDC)"},
    {Outcome::FalseAlarm, "false-alarm", "false alarm"},
};
}  // namespace

template <> const EnumTable<Outcome>& enumTable<Outcome>()
{
    static const EnumTable<Outcome> table{"outcome", kOutcomeNames};
    return table;
}

std::string_view toString(Outcome o) { return nameOf(o); }
std::string_view describe(Outcome o) { return labelOf(o); }
Outcome outcomeFromString(std::string_view s) { return valueOfName<Outcome>(s); }

Outcome judgeRun(const RunJudgement& j)
{
    // The same order as classifyRun (families/blocked_gemm/campaign/blocked_outcome.cpp): a failed run, then what nothing was injected into, then the
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
