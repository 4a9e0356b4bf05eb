// runOnline on inputs the caller already holds (the bench reuses A and B across runs).
#pragma once

#include "gigacheck/online_abft.hpp"

namespace gigacheck::online_abft {

// hooks.backend must be set; a and b are read (the host copies stay clean: faults strike the
// device's copies), result receives C. Throws InputError on bad settings.
OnlineRecord runOnlineOn(const OnlineConfig& config, const RunHooks& hooks, HostMatrix& a, HostMatrix& b,
                         HostMatrix& result, const StepSnapshotSink* onStep = nullptr);

}  // namespace gigacheck::online_abft
