// makeBackend: which backend a run gets, and why (reported in DeviceInfo::whyChosen).
#include "gigacheck/backend.hpp"

namespace gigacheck {

namespace {

// Backends built here carry the reason they were chosen.
class ExplainedBackend final : public Backend {
public:
    ExplainedBackend(std::unique_ptr<Backend> inner, std::string why) : inner_(std::move(inner)), why_(std::move(why)) {}
    DeviceInfo device() const override
    {
        DeviceInfo info = inner_->device();
        info.whyChosen = why_;
        return info;
    }
    HostAllocator hostAllocator() const override { return inner_->hostAllocator(); }
    void prepare() override { inner_->prepare(); }
    ExecutionResult execute(const ExecutionRequest& request) override { return inner_->execute(request); }

private:
    std::unique_ptr<Backend> inner_;
    std::string why_;
};

}  // namespace

std::unique_ptr<Backend> makeBackend(BackendKind kind, int device)
{
    if (kind == BackendKind::Cpu) {
        if (device >= 0)
            throw InputError("--device " + std::to_string(device) +
                             " picks a CUDA device, but --backend cpu runs on the CPU (leave --device out, or use "
                             "--backend cuda)");
        return std::make_unique<ExplainedBackend>(makeCpuBackend(), "--backend cpu: requested");
    }
    std::string whyNot;
    std::unique_ptr<Backend> cuda = makeCudaBackend(&whyNot, device);
    // A device named explicitly is a request for CUDA, whatever the backend says.
    if (kind == BackendKind::Cuda || device >= 0) {
        const std::string asked = device >= 0 ? "--device " + std::to_string(device) : "--backend cuda";
        if (!cuda)
            throw InputError(asked + " is not available: " + whyNot);
        return std::make_unique<ExplainedBackend>(std::move(cuda), asked + ": requested");
    }
    if (cuda)
        return std::make_unique<ExplainedBackend>(std::move(cuda), "--backend auto: a CUDA device was found");
    return std::make_unique<ExplainedBackend>(makeCpuBackend(), "--backend auto: no CUDA backend (" + whyNot + ")");
}

}  // namespace gigacheck
