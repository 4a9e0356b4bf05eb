// Online ABFT runs for the engine and GPU tests: a fault at a cell and step, and the check that
// followed a step.
#pragma once

#include "gigacheck/online_abft.hpp"

#include <cstdint>

namespace gigacheck::test {

inline OnlineFault at(std::int64_t r, std::int64_t c, int step, OnlineTarget target = OnlineTarget::Result)
{
    OnlineFault f;
    f.target = target;
    f.row = r;
    f.col = c;
    f.step = step;
    return f;
}

// The first check after `step` (block.k is the step a check follows); null when none ran there.
inline const VerifyEvent* checkAt(const OnlineRecord& r, int step)
{
    for (const VerifyEvent& e : r.verifications)
        if (e.block.k == step)
            return &e;
    return nullptr;
}

}  // namespace gigacheck::test
