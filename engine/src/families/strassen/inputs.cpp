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

std::vector<Injection> faultActions(const StrassenConfig& config)
{
    std::vector<Injection> actions(config.faults.size());
    const FaultModelSpec& model = config.faultModel;
    if (model.model != FaultModel::BitFlip)
        return actions;
    const int bit = resolvedBit(model.bit, config.precision);
    const int bit2 = model.bit2 < 0 ? -1 : resolvedBit(model.bit2, config.precision);
    if (bit2 == bit)
        throw InputError("two-bit flip: the second bit must differ from the first (both are " + std::to_string(bit) + ")");
    for (std::size_t f = 0; f < actions.size(); ++f) {
        if (config.faults[f].deltaGiven)
            continue;  // a delta given with the fault is added, as run adds it
        actions[f].model = FaultModel::BitFlip;
        actions[f].bit = bit;
        actions[f].bit2 = bit2;
    }
    return actions;
}

Injection injectionOf(const ExecutionRequest& request, const Operation& inject)
{
    const std::vector<Injection>& faults = inputsOf(request).faults;
    if (inject.aux >= 0 && std::size_t(inject.aux) < faults.size() && faults[std::size_t(inject.aux)].model == FaultModel::BitFlip)
        return faults[std::size_t(inject.aux)];
    Injection delta;
    delta.model = FaultModel::Delta;
    delta.delta = inject.operands.front().coefficient;
    return delta;
}

}  // namespace gigacheck::strassen
