// makeBackend: which backend a run gets, and why (reported in DeviceInfo::whyChosen), with the
// roofs stored by `gigacheck devices --measure` for its device: the backends themselves know
// nothing of the ceilings store.
#include "gigacheck/backend.hpp"
#include "gigacheck/bench.hpp"

#include <optional>

namespace gigacheck {

namespace {

// Backends built here carry the reason they were chosen and the device's stored ceilings.
class ExplainedBackend final : public Backend {
public:
    ExplainedBackend(std::unique_ptr<Backend> inner, std::string why) : inner_(std::move(inner)), why_(std::move(why)) {}
    ExplainedBackend(std::unique_ptr<Backend> inner, std::string why, const Ceilings& ceilings)
        : ExplainedBackend(std::move(inner), std::move(why))
    {
        ceilings_ = ceilings;
    }
    DeviceInfo device() const override
    {
        DeviceInfo info = inner_->device();
        info.whyChosen = why_;
        if (ceilings_)
            info.ceilings = *ceilings_;
        return info;
    }
    std::vector<DeviceInfo> devices() const override
    {
        std::vector<DeviceInfo> all = inner_->devices();
        all.front() = device();  // the first carries why it was chosen and the stored ceilings
        return all;
    }
    HostAllocator hostAllocator() const override { return inner_->hostAllocator(); }
    void prepare() override { inner_->prepare(); }
    ExecutionResult execute(const ExecutionRequest& request) override { return inner_->execute(request); }

private:
    std::unique_ptr<Backend> inner_;
    std::string why_;
    std::optional<Ceilings> ceilings_;
};

// A backend with the roofs stored for its device, when there are any (the CPU's too: the cost
// model of the planner reads its OpenBLAS and memcpy rates).
std::unique_ptr<Backend> withStoredCeilings(std::unique_ptr<Backend> backend, std::string why)
{
    DeviceInfo info = backend->device();
    try {
        if (loadCeilings(defaultCeilingsPath(), info))
            return std::make_unique<ExplainedBackend>(std::move(backend), std::move(why), info.ceilings);
    } catch (const std::exception&) {
    }
    return std::make_unique<ExplainedBackend>(std::move(backend), std::move(why));
}

}  // namespace

std::unique_ptr<Backend> makeBackend(BackendKind kind, int device)
{
    if (kind == BackendKind::Cpu) {
        if (device >= 0)
            throw InputError("--device " + std::to_string(device) +
                             " picks a CUDA device, but --backend cpu runs on the CPU (leave --device out, or use "
                             "--backend cuda)");
        return withStoredCeilings(makeCpuBackend(), "--backend cpu: requested");
    }
    std::string whyNot;
    std::unique_ptr<Backend> cuda = makeCudaBackend(&whyNot, device);
    // A device named explicitly is a request for CUDA, whatever the backend says.
    if (kind == BackendKind::Cuda || device >= 0) {
        const std::string asked = device >= 0 ? "--device " + std::to_string(device) : "--backend cuda";
        if (!cuda)
            throw InputError(asked + " is not available: " + whyNot);
        return withStoredCeilings(std::move(cuda), asked + ": requested");
    }
    if (cuda)
        return withStoredCeilings(std::move(cuda), "--backend auto: a CUDA device was found");
    return withStoredCeilings(makeCpuBackend(), "--backend auto: no CUDA backend (" + whyNot + ")");
}

}  // namespace gigacheck
