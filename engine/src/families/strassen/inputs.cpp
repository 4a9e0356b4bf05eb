#include "families/strassen/inputs.hpp"

#include "families/strassen/ops.hpp"

namespace gigacheck::strassen {

Inputs& inputsOf(const ExecutionRequest& request) { return familyInputs<Inputs>(request, kFamilyName); }

void checkInputs(const ExecutionRequest& req, const std::string& backendName)
{
    const auto* in = dynamic_cast<const Inputs*>(req.inputs);
    if (!in || !in->a || !in->b || !in->c)
        throw BackendError(backendName + ": the strassen request lacks its host matrices");
    const auto& buffers = req.schedule->buffers;
    if (buffers.size() < 3)
        throw BackendError(backendName + ": a strassen schedule has slots A, B and C");
    auto matches = [&](const HostMatrix* m, const BufferSpec& b) {
        return m->rows() == b.rows && m->cols() == b.cols && m->precision() == in->precision;
    };
    if (!matches(in->a, buffers[kSlotA]) || !matches(in->b, buffers[kSlotB]) || !matches(in->c, buffers[kSlotC]))
        throw BackendError(backendName + ": host matrices do not match the schedule's A, B, C");
}

}  // namespace gigacheck::strassen
