#include "families/blocked_gemm/run/blocked_run.hpp"

#include "gigacheck/blocked_gemm/run.hpp"

namespace gigacheck::blocked_gemm {

std::string BlockedRun::describe() const
{
    const RunConfig& c = config_;
    std::string text = "blocked GEMM " + shapeText(c.shape) + ", " +
                       (c.planByCostModel ? std::string("auto") : std::string(toString(c.strategy))) + " under " +
                       (c.memCapBytes == 0 ? std::string("the device's memory") : formatBytes(double(c.memCapBytes)));
    if (c.devices > 1)
        text += " on " + std::to_string(c.devices) + " devices";
    text += ", " + std::string(toString(c.precision));
    if (c.gemm != GemmVariant::Cublas)
        text += " " + std::string(toString(c.gemm));
    if (!c.abft)
        text += ", no ABFT";
    text += describeFaults(c.faults.at.size());
    if (c.faults.count > 0)
        text += " + " + std::to_string(c.faults.count) + " random per block product";
    return text + describeBackend(c.backend);
}

std::shared_ptr<const RecordEnvelope> BlockedRun::run(const RunHooks& hooks)
{
    return std::make_shared<const RunRecord>(runGemm(config_, hooks));
}

}  // namespace gigacheck::blocked_gemm
