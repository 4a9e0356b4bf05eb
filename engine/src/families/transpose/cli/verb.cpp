// gigacheck transpose: one matrix transpose, verified, timed and counted.
#include "families/transpose/cli/verb.hpp"

#include "families/cli/option_groups.hpp"
#include "families/transpose/run/transpose_run.hpp"
#include "gigacheck/transpose.hpp"

#include <array>
#include <tuple>

namespace gigacheck::transpose {
namespace {

// "MxN" -> {m, n}
std::pair<std::int64_t, std::int64_t> parseMatrixShape(const std::string& s)
{
    const std::size_t x = s.find_first_of("xX");
    if (x == std::string::npos)
        throw InputError("expected MxN, e.g. 4096x4096");
    return {parsePositiveExtent(s.substr(0, x)), parsePositiveExtent(s.substr(x + 1))};
}

std::vector<OptionSpec> options()
{
    std::vector<OptionSpec> o{
        {"shape", "The input is M x N (row-major); the result N x M.", "MxN"},
        {"variant",
         "Kernel: " + joinedNames<Variant>("|") +
             " (default inplace). CPU: naive, blocked, outofplace, inplace, library; CUDA: naive, coalesced, inplace, "
             "padded, library.",
         "V", "inplace"},
        {"type", "f32 | i32 (default f32).", "T", "f32"},
    };
    for (OptionSpec& s : cli::backendOptions())
        o.push_back(std::move(s));
    o.push_back({"reps", "Timed repetitions after a warm-up (default 3); 0: one call and no warm-up (cache simulation).",
                 "R", "3"});
    o.push_back(cli::jsonOption());
    o.push_back(cli::quietOption());
    return o;
}

std::unique_ptr<FamilyRun> configure(const CommandOptions& options)
{
    if (!options.isSet("shape"))
        throw InputError("transpose needs --shape MxN");
    Config config;
    std::tie(config.m, config.n) = options.value("shape", parseMatrixShape);
    config.variant = options.value("variant", [](const std::string& s) { return variantFromString(s); });
    config.type = options.value("type", [](const std::string& s) { return elementTypeFromString(s); });
    cli::readBackendOptions(options, config);
    config.reps = cli::repsOption(options, 0);
    return std::make_unique<ConfiguredRun>(config);
}

constexpr std::array<std::string_view, 2> kUsage{
    "  --variant naive|blocked|outofplace|coalesced|inplace|padded|library [--type f32|i32]",
    "  [--backend auto|cpu|cuda] [--json FILE] [--quiet]"};

}  // namespace

const FamilyCommand& command()
{
    static const FamilyCommand c{"matrix transpose: gigacheck transpose --shape MxN", kUsage,
                                 "Matrix transpose, in place or out of place. Exit 0 correct, 1 wrong, 2 bad input.",
                                 &options, &configure};
    return c;
}

}  // namespace gigacheck::transpose
