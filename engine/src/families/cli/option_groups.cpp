#include "families/cli/option_groups.hpp"

#include "gigacheck/safe_write.hpp"

#include <limits>

namespace gigacheck::cli {

std::vector<OptionSpec> backendOptions()
{
    return {{"backend", "auto | cpu | cuda (default auto).", "B", "auto"},
            {"device", "CUDA device number. Default: the first.", "N"}};
}

OptionSpec jsonOption(std::string help) { return {"json", std::move(help), "FILE"}; }

OptionSpec quietOption() { return {"quiet", "Print only the verdict line, not the report."}; }

std::string jsonPathOption(const CommandOptions& options)
{
    if (!options.isSet("json"))
        return {};
    const std::string path = options.value("json");
    if (path.empty())
        throw InputError("--json needs a file name (got an empty one); leave --json out to write no record");
    return path;
}

int repsOption(const CommandOptions& options, int least)
{
    constexpr std::int64_t kMaxReps = 1000000;
    return int(options.value("reps", [least](const std::string& s) {
        return parseInteger<std::int64_t>(s, least, kMaxReps, "a repetition count");
    }));
}

std::uint64_t seedOption(const CommandOptions& options)
{
    return options.value("seed", [](const std::string& s) {
        return parseInteger<std::uint64_t>(s, 0, std::numeric_limits<std::uint64_t>::max(), "a seed");
    });
}

}  // namespace gigacheck::cli
