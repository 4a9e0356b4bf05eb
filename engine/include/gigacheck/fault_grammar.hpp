// One grammar for placing faults, read the same way by every verb that takes faults (run with each
// scheme, strassen) and by the records that store them:
//   --inject-at [TARGET:]R,C[:DELTA][@WHEN]   a cell R,C (from 0) of TARGET, what to add, when
//   --inject-at TARGET:Q[:DELTA][@WHEN]       shorthand (Strassen): the middle cell of quadrant Q
//   --inject-at product:K[:R,C][:DELTA]       (Strassen) the result of leaf product K, right after it
//   --fault delta|bitflip[:B[+B2]]            what a fault does to its cell
// Parsing knows no family; each family maps a spec to its own placement and refuses what it cannot
// place, naming what it takes.
#pragma once

#include "gigacheck/faults.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gigacheck {

// TARGET: the result C (the default; "result" is read as c), the operands A / B, the checksum row or
// column of C, or leaf product K (Strassen).
enum class InjectTarget { C, A, B, ChecksumRow, ChecksumCol, Product };

struct InjectSpec {
    InjectTarget target = InjectTarget::C;
    bool targetGiven = false;      // a TARGET: prefix was written
    int product = -1;              // product:K
    std::optional<int> quadrant;   // TARGET:Q, Q 0..3 (then no cell)
    std::int64_t row = -1, col = -1;  // the cell R,C; -1 when none was given
    std::optional<double> delta;   // :DELTA as written (0 included)
    std::optional<int> when;       // @WHEN: a step (online), a leaf product (Strassen), a k step (blocked)
    bool hasCell() const { return row >= 0; }
    bool operator==(const InjectSpec&) const = default;
};

// The accepted forms, for refusals and help texts.
inline constexpr std::string_view kInjectAtForms =
    "[TARGET:]R,C[:DELTA][@WHEN] with TARGET c (default), a, b, checksum-row, checksum-col or product:K; "
    "Strassen also takes the quadrant form c:Q, a:Q, b:Q (Q 0..3) and product:K[:DELTA]";
inline constexpr std::string_view kFaultModelForms = "delta, bitflip, bitflip:B or bitflip:B+B2";

// Throws InputError naming what was wrong and the accepted forms.
InjectSpec parseInjectSpec(std::string_view text);
// The canonical text ("a:3,4:0.5@2", "c:1", "product:3"); parseInjectSpec reads it back equal.
std::string toString(const InjectSpec&);
std::string_view toString(InjectTarget);  // "c", "a", "b", "checksum-row", "checksum-col", "product"

// --fault: a delta, or bit B (-1: the top exponent bit of the element) and optionally B2 of the
// same word flipped at once.
struct FaultModelSpec {
    FaultModel model = FaultModel::Delta;
    int bit = -1;
    int bit2 = -1;
    bool operator==(const FaultModelSpec&) const = default;
};
FaultModelSpec parseFaultModelSpec(std::string_view text);  // throws InputError naming the accepted forms (callers name the option)
std::string toString(const FaultModelSpec&);               // "delta", "bitflip", "bitflip:30", "bitflip:3+9"
// The bit a bit flip strikes in an element of this precision: B, or the top exponent bit (30 FP32,
// 62 FP64) for -1. Throws InputError when B is outside the element.
int resolvedBit(int bit, Precision precision);

}  // namespace gigacheck
