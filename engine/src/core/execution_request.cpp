// The request check every backend runs first (one place, so the backends agree on it): what is
// core's here, the rest by the family's checkInputs.
#include "gigacheck/backend.hpp"

#include "core/op_table.hpp"

namespace gigacheck {

void checkExecutionRequest(const ExecutionRequest& req, const std::string& backendName)
{
    if (!req.schedule)
        throw BackendError(backendName + ": the request lacks a schedule");
    const Schedule& s = *req.schedule;
    if (s.devices < 1 || s.streams < 1)
        throw BackendError(backendName + ": the schedule has " + std::to_string(s.devices) + " devices and " +
                           std::to_string(s.streams) + " streams (at least one of each)");
    for (const BufferSpec& b : s.buffers)
        if (b.device < 0 || b.device >= s.devices)
            throw BackendError(backendName + ": buffer " + b.name + " is placed on device " + std::to_string(b.device) +
                               " of " + std::to_string(s.devices));
    for (const Operation& op : s.ops)
        if (op.device < 0 || op.device >= s.devices)
            throw BackendError(backendName + ": op " + std::to_string(op.id) + " is placed on device " +
                               std::to_string(op.device) + " of " + std::to_string(s.devices));
    const FamilyOps& family = familyOf(req);
    if (family.checkInputs)
        family.checkInputs(req, backendName);
}

}  // namespace gigacheck
