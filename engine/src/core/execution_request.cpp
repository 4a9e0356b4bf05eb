// The request check every backend runs first (one place, so the backends agree on it).
#include "gigacheck/backend.hpp"

namespace gigacheck {

void checkExecutionRequest(const ExecutionRequest& req, const std::string& backendName)
{
    if (!req.schedule || !req.a || !req.b || !req.c)
        throw BackendError(backendName + ": the request lacks a schedule or a matrix");
    const Plan& p = req.schedule->plan;
    const Shape s = p.shape;
    auto matches = [&p](const HostMatrix* m, std::int64_t r, std::int64_t c) {
        return m->rows() == r && m->cols() == c && m->precision() == p.precision;
    };
    if (!matches(req.a, s.m, s.n) || !matches(req.b, s.n, s.q) || !matches(req.c, s.m, s.q))
        throw BackendError(backendName + ": host matrices do not match the plan's shape and precision");
}

}  // namespace gigacheck
