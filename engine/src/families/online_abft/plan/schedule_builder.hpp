// The online ABFT family's schedule: plain data, one op per step (load, encode, each panel
// product, each fault injection, each check, store; TMR: three replica products and the vote).
#pragma once

#include "families/online_abft/inputs.hpp"

#include "gigacheck/schedule.hpp"

namespace gigacheck::online_abft {

// The buffers of a run: A (m + K) x n, B n x (q + max(K, 2)) (the device keeps r_B's row norms in
// the second spare column), C (m + K) x (q + K), aux 4 rows of doubles (the device's round-off
// bound and control sums); TMR: A, B and three m x q replicas.
Plan makeOnlinePlan(const Shape& shape, Precision precision, const OnlineInputs& in);

// Ops in issue order on one stream, each depending on the one before (a step needs the previous
// step's C; a check must see the step it follows). Faults after step j get an inject-fault op
// right after panel-product j (TMR: after replica product j).
Schedule buildOnlineSchedule(const Plan& plan, const OnlineInputs& in, const OnlineConfig& config);

}  // namespace gigacheck::online_abft
