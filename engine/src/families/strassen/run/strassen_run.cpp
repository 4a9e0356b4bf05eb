#include "families/strassen/run/strassen_run.hpp"

namespace gigacheck::strassen {

std::string StrassenRun::describe() const
{
    const int levels = effectiveLevels(config_.shape, config_.levels);
    std::string text = "Strassen " + shapeText(config_.shape) + ", " + std::to_string(levels) +
                       (levels == 1 ? " level " : " levels ") + std::string(toString(config_.variant)) + ", " +
                       (config_.tf32 ? "tf32" : std::string(toString(config_.precision)));
    if (config_.devices > 1)
        text += ", " + std::to_string(config_.devices) + " devices";
    return text + describeFaults(config_.faults.size()) + describeBackend(config_.backend);
}

std::shared_ptr<const RecordEnvelope> StrassenRun::run(const RunHooks& hooks)
{
    std::unique_ptr<Backend> own;
    Backend* backend = hooks.backend;
    if (!backend) {
        own = makeStrassenBackend(config_);
        backend = own.get();
    }
    return std::make_shared<const StrassenResult>(runStrassen(config_, *backend, hooks.observer, hooks.cancel));
}

}  // namespace gigacheck::strassen
