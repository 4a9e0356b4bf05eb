// Online ABFT runs for the engine and GPU tests: a checked run's configuration, a run that keeps
// its C, a fault at a cell and step, the check that followed a step, and its verdict counts.
#pragma once

#include "gigacheck/online_abft.hpp"
#include "gigacheck/run_hooks.hpp"

#include <cstdint>

namespace gigacheck::test {

// Online ABFT of `shape` on `backend` with panel width `panel`, a check every `fq` steps, the panel
// products by `gemm`, and the full reference.
inline OnlineConfig onlineRun(BackendKind backend, GemmVariant gemm, Shape shape, std::int64_t panel, int fq)
{
    OnlineConfig c;
    c.shape = shape;
    c.backend = backend;
    c.scheme = Scheme::Online;
    c.panel = panel;
    c.checkEvery = fq;
    c.gemm = gemm;
    c.reference = ReferenceMode::Full;
    return c;
}

// runOnline, C kept in `result`.
inline OnlineRecord runKeeping(const OnlineConfig& c, HostMatrix& result)
{
    RunHooks hooks;
    hooks.resultOut = &result;
    return runOnline(c, hooks);
}

// How many of the run's checks ended with verdict v.
inline int verdicts(const OnlineRecord& r, Verdict v)
{
    int n = 0;
    for (const VerifyEvent& e : r.verifications)
        n += e.result.verdict == v;
    return n;
}

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
