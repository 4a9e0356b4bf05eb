// gigacheck reduced: one reduced matrix multiplication, verified, timed and counted.
#include "families/reduced_matmul/cli/verb.hpp"

#include "families/cli/option_groups.hpp"
#include "families/reduced_matmul/run/reduced_run.hpp"
#include "gigacheck/reduced_matmul.hpp"

#include <array>

namespace gigacheck::reduced_matmul {
namespace {

std::vector<OptionSpec> options()
{
    std::vector<OptionSpec> o{
        {"n", "A and B are N x N (N even); C is N/2 x N/2.", "N"},
        {"variant", "Kernel: " + joinedNames<Variant>("|") + " (default reduce-blas).", "V", "reduce-blas"},
        {"type", "f32 | f64 (default f32).", "T", "f32"},
    };
    for (OptionSpec& s : cli::backendOptions())
        o.push_back(std::move(s));
    o.push_back({"reps", "Timed repetitions after a warm-up (default 3).", "R", "3"});
    o.push_back({"seed", "Seed of the random inputs (default 42).", "S", "42"});
    o.push_back(cli::jsonOption());
    o.push_back(cli::quietOption());
    return o;
}

std::unique_ptr<FamilyRun> configure(const CommandOptions& options)
{
    if (!options.isSet("n"))
        throw InputError("reduced needs --n N (an even matrix size)");
    Config config;
    config.n = options.value("n", parsePositiveExtent);
    config.variant = options.value("variant", [](const std::string& s) { return variantFromString(s); });
    config.precision = options.value("type", [](const std::string& s) { return precisionFromString(s); });
    cli::readBackendOptions(options, config);
    config.reps = cli::repsOption(options, 1);
    config.seed = cli::seedOption(options);
    return std::make_unique<ConfiguredRun>(config);
}

constexpr std::array<std::string_view, 1> kUsage{"  [--type f32|f64] [--backend auto|cpu|cuda] [--json FILE] [--quiet]"};

}  // namespace

const FamilyCommand& command()
{
    static const FamilyCommand c{
        "reduced matmul: gigacheck reduced --n N --variant naive4p|naivep|tiled8|tiled16|tiled32|reduce-blas", kUsage,
        "Reduced matrix multiplication: C_ij = (A row 2i + row 2i+1) . (B column 2j + column 2j+1). Exit 0 correct, "
        "1 wrong, 2 bad input.",
        &options, &configure};
    return c;
}

}  // namespace gigacheck::reduced_matmul
