// Faults in C that no check saw although they changed C beyond what the checks resolve -- faults
// that cancel in every row and column sum, or a TMR cell struck alike in all three replicas: C is
// then known wrong whatever the checks said. The run's own verdict (OnlineRecord::verifiedCorrect)
// and its report say so; a campaign judges the scheme by its checks alone (verifiedByChecks).
#pragma once

#include "gigacheck/online_abft.hpp"

#include <string>

namespace gigacheck::online_abft {

// How many; 0 when the full reference judged every cell, or the product was computed again clean.
int missedFaults(const OnlineRecord& r);
// The verdict's words for them; empty when there are none.
std::string missedFaultsWords(const OnlineRecord& r);

}  // namespace gigacheck::online_abft
