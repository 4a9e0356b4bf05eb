// Forwards a run's events and adds onResultBlock after each copy of a C block to the host, so
// that the backends need not know about viewers of the result.
#pragma once

#include "gigacheck/events.hpp"

namespace gigacheck {

class ResultBlockObserver final : public RunObserver {
public:
    ResultBlockObserver(RunObserver& inner, const Schedule& schedule, const HostMatrix& c)
        : inner_(inner), schedule_(schedule), c_(c)
    {
    }
    void onPlan(const Schedule& s) override { inner_.onPlan(s); }
    void onSpan(const Span& span) override
    {
        inner_.onSpan(span);
        if (span.kind == OpKind::CopyD2H)
            inner_.onResultBlock(c_, schedule_.ops[std::size_t(span.opId)].host);
    }
    void onInject(const InjectEvent& e) override { inner_.onInject(e); }
    void onVerify(const VerifyEvent& e) override { inner_.onVerify(e); }
    void onProgress(double f) override { inner_.onProgress(f); }
    void onResultBlock(const HostMatrix& c, const Region& r) override { inner_.onResultBlock(c, r); }

private:
    RunObserver& inner_;
    const Schedule& schedule_;
    const HostMatrix& c_;
};

}  // namespace gigacheck
