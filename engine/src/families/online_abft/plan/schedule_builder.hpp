// The online ABFT family's schedule: plain data, one op per step (load, encode, each panel
// product, each fault injection, each check, store; TMR: three replica products and the vote).
#pragma once

#include "families/online_abft/inputs.hpp"

#include "gigacheck/schedule.hpp"

#include <string>
#include <vector>

namespace gigacheck::online_abft {

// What a run holds on the device: its buffers, all at once (no blocking under a cap).
struct OnlinePlan {
    Shape shape;
    Precision precision = Precision::F32;
    std::vector<BufferSpec> buffers;
    std::size_t bytesNeeded = 0;  // sum of buffers, also the schedule's capBytes
    std::string explanation;      // one sentence for reports
};

// The buffers of a run: A (m + K) x n, B n x (q + max(K, 2)) (the device keeps r_B's row norms in
// the second spare column), C (m + K) x (q + K), aux 4 rows of doubles (the device's round-off
// bound and control sums); TMR: A, B and three m x q replicas.
OnlinePlan makeOnlinePlan(const Shape& shape, Precision precision, const OnlineInputs& in);

// Ops in issue order on one stream, each depending on the one before (a step needs the previous
// step's C; a check must see the step it follows). Faults after step j get an inject-fault op
// right after panel-product j (TMR: after replica product j).
Schedule buildOnlineSchedule(const OnlinePlan& plan, const OnlineInputs& in, const OnlineConfig& config);

}  // namespace gigacheck::online_abft
