#include "families/online_abft/run/online_run.hpp"

namespace gigacheck::online_abft {

std::string OnlineRun::describe() const
{
    const OnlineConfig& c = config_;
    std::string text = std::string(toString(c.scheme)) + " ABFT " + shapeText(c.shape) + ", panel " +
                       std::to_string(c.panelWidth());
    if (c.scheme == Scheme::Online)
        text += ", checked every " + std::to_string(c.checkEvery) + (c.checkEvery == 1 ? " step" : " steps");
    text += ", " + std::string(toString(c.precision));
    if (c.gemm != GemmVariant::Cublas)
        text += " " + std::string(toString(c.gemm));
    text += describeFaults(c.faults.size());
    if (c.randomErrors > 0)
        text += " + " + std::to_string(c.randomErrors) + " random";
    return text + describeBackend(c.backend);
}

}  // namespace gigacheck::online_abft
