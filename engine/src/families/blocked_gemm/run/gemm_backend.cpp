// makeGemmBackend: the backend of a run spread over several devices, and why those devices.
#include "gigacheck/blocked_gemm/run.hpp"

#include "gigacheck/bench.hpp"

#include <algorithm>
#include <sstream>

namespace gigacheck {

namespace {

// The multi-device backend with the first device's reason and stored ceilings (makeBackend's).
class SpreadBackend final : public Backend {
public:
    SpreadBackend(std::unique_ptr<Backend> inner, DeviceInfo first) : inner_(std::move(inner)), first_(std::move(first)) {}
    DeviceInfo device() const override { return first_; }
    std::vector<DeviceInfo> devices() const override
    {
        std::vector<DeviceInfo> all = inner_->devices();
        all.front().whyChosen = first_.whyChosen;
        all.front().ceilings = first_.ceilings;
        return all;
    }
    HostAllocator hostAllocator() const override { return inner_->hostAllocator(); }
    void prepare() override { inner_->prepare(); }
    ExecutionResult execute(const ExecutionRequest& request) override { return inner_->execute(request); }

private:
    std::unique_ptr<Backend> inner_;
    DeviceInfo first_;
};

// The chosen GPU first, then the others in order, repeated until there are `devices`.
std::vector<int> ordinalsFor(int chosen, int devices, const std::vector<DeviceInfo>& listed)
{
    std::vector<int> gpus{chosen};
    for (const DeviceInfo& d : listed)
        if (d.backend == BackendKind::Cuda && d.index != chosen)
            gpus.push_back(d.index);
    std::vector<int> ordinals;
    for (int d = 0; d < devices; ++d)
        ordinals.push_back(gpus[std::size_t(d) % gpus.size()]);
    return ordinals;
}

}  // namespace

std::unique_ptr<Backend> makeGemmBackend(const RunConfig& config)
{
    std::unique_ptr<Backend> single = makeBackend(config.backend, config.device);
    if (config.devices <= 1)
        return single;
    DeviceInfo first = single->device();
    std::ostringstream why;
    why << first.whyChosen << "; --devices " << config.devices << ": ";
    if (first.backend == BackendKind::Cpu) {
        why << config.devices << " emulated CPU devices";
        first.whyChosen = why.str();
        return std::make_unique<SpreadBackend>(makeCpuBackend(config.devices), first);
    }
    const std::vector<int> ordinals = ordinalsFor(first.index, config.devices, listDevices(nullptr));
    single.reset();
    std::string whyNot;
    std::unique_ptr<Backend> several = makeCudaBackend(&whyNot, ordinals);
    if (!several)
        throw InputError("--devices " + std::to_string(config.devices) + ": " + whyNot);
    std::vector<int> gpus = ordinals;
    std::sort(gpus.begin(), gpus.end());
    gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
    why << "CUDA ordinals";
    for (std::size_t d = 0; d < ordinals.size(); ++d)
        why << (d ? ", " : " ") << ordinals[d];
    if (gpus.size() < ordinals.size())
        why << " (" << gpus.size() << " GPU" << (gpus.size() == 1 ? "" : "s") << " for " << ordinals.size()
            << " devices: ordinals repeated, devices sharing a GPU are emulated)";
    first.whyChosen = why.str();
    return std::make_unique<SpreadBackend>(std::move(several), first);
}

}  // namespace gigacheck
