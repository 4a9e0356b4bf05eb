// What a Strassen run says in plain words: the verdict (verified / corrected / uncorrectable,
// where the fault was caught and how it was put right) and the measured figures (recovery error
// of A and B in ulps and changed elements, error of C, time, memory beyond A, B, C).
#pragma once

#include <gigacheck/strassen.hpp>

#include <QString>

namespace gigacheck::ui::strassenlab {

enum class Verdict { Verified, Corrected, Uncorrectable, NotVerified, Failed, Cancelled };
Verdict verdictOf(const StrassenResult& result);
// One line, large in the view: "VERIFIED — C = A·B, no fault found".
QString verdictHeadline(const StrassenResult& result);
// Where each check caught something and what it did, one line each.
QString verdictDetails(const StrassenResult& result);
// The recovery error of A and B, the error of C, time, memory.
QString measuredFigures(const StrassenResult& result);

}  // namespace gigacheck::ui::strassenlab
