// The family's inputs as its ops see them, and their check before a run (FamilyOps::checkInputs).
#include "families/blocked_gemm/ops.hpp"

#include <algorithm>

namespace gigacheck::blocked_gemm {

Inputs& inputsOf(const ExecutionRequest& request) { return familyInputs<Inputs>(request, kFamilyName); }

void checkInputs(const ExecutionRequest& req, const std::string& backendName)
{
    const auto* in = dynamic_cast<const Inputs*>(req.inputs);
    if (!in || !in->a || !in->b || !in->c)
        throw BackendError(backendName + ": the request lacks a schedule or a matrix");
    const Plan& p = in->plan;
    const Shape s = p.shape;
    auto matches = [&p](const HostMatrix* m, std::int64_t r, std::int64_t c) {
        return m->rows() == r && m->cols() == c && m->precision() == p.precision;
    };
    if (!matches(in->a, s.m, s.n) || !matches(in->b, s.n, s.q) || !matches(in->c, s.m, s.q))
        throw BackendError(backendName + ": host matrices do not match the plan's shape and precision");
    // One copy of the plan's buffers per device (buildSchedule).
    if (p.buffers.size() * std::size_t(std::max(1, req.schedule->devices)) != req.schedule->buffers.size())
        throw BackendError(backendName + ": the plan's buffers are not the schedule's");
}

}  // namespace gigacheck::blocked_gemm
