// Strassen runs for the engine and GPU tests: what a run's checks caught.
#pragma once

#include "gigacheck/strassen.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace gigacheck::test {

// The checks that saw a fault ("product 9", "c", ...), in the order they ran.
inline std::vector<std::string> detectedChecks(const StrassenResult& r)
{
    std::vector<std::string> caught;
    for (const StrassenCheck& k : r.checks)
        if (k.verdict == "detected")
            caught.push_back(k.where);
    return caught;
}

// What the run's fault events say against its faults (families/strassen/injection_event.hpp):
// one applied event per fault into C or a leaf product, none for A or B; a delta moved the cell by
// the delta (to the element's rounding), a bit flip flipped its bits, and a fault at a cell of C
// names that cell. Empty when all holds, else what did not.
inline std::string faultEventsMismatch(const StrassenResult& r)
{
    for (std::size_t i = 0; i < r.config.faults.size(); ++i) {
        const StrassenFault& f = r.config.faults[i];
        const std::string what = "fault " + toString(f) + ": ";
        std::vector<InjectEvent> events;
        for (const InjectEvent& e : r.injections)
            if (e.injection.block.k == int(i))
                events.push_back(e);
        const bool operand = f.where == StrassenFault::Where::A || f.where == StrassenFault::Where::B;
        if (events.size() != (operand ? 0u : 1u))
            return what + std::to_string(events.size()) + " event(s)";
        if (operand)
            continue;
        const Injection& inj = events.front().injection;
        if (!inj.applied || inj.target != FaultTarget::Result)
            return what + "not applied to C's side";
        const double eps = r.config.precision == Precision::F64 ? 1e-15 : 1e-6;
        if (inj.model == FaultModel::BitFlip) {
            const double again = applyFault(inj, inj.before, r.config.precision);
            if (!(again == inj.after || (std::isnan(again) && std::isnan(inj.after))))
                return what + "after " + std::to_string(inj.after) + " is not before with its bits flipped";
        } else if (std::abs(inj.after - inj.before - f.delta) > eps * (std::abs(f.delta) + std::abs(inj.before)) + 1e-30) {
            return what + std::to_string(inj.before) + " -> " + std::to_string(inj.after) + " is not + " + std::to_string(f.delta);
        }
        if (f.where == StrassenFault::Where::C && f.hasCell() && (inj.globalRow != f.row || inj.globalCol != f.col))
            return what + "at (" + std::to_string(inj.globalRow) + ", " + std::to_string(inj.globalCol) + ")";
        if (inj.globalRow >= r.config.shape.m || inj.globalCol >= r.config.shape.q || events.front().time < 0)
            return what + "outside C or before the run";
    }
    if (!r.verifications.empty())
        return "verification events in a strassen run";
    return {};
}

}  // namespace gigacheck::test
