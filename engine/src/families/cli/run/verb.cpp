// gigacheck run: one ABFT-checked product under a memory cap (blocked GEMM) or an online ABFT run
// (--scheme online | offline | tmr), its report and its record; the scheme picks the family.
#include "families/cli/run/verb.hpp"

#include "families/cli/run/run_inputs.hpp"
#include "families/cli/run/run_options.hpp"
#include "families/blocked_gemm/run/blocked_run.hpp"
#include "families/online_abft/run/online_run.hpp"
#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/safe_write.hpp"

#include <array>

namespace gigacheck::run_verb {
namespace {

// A blocked run of `gigacheck run`, with the user's own matrices (--load-a / --load-b) and C
// written to --save-c.
class RunVerbBlockedRun final : public blocked_gemm::BlockedRun {
public:
    RunVerbBlockedRun(const RunOptions& options, GivenOperands given)
        : BlockedRun(options.config), options_(options), given_(std::move(given))
    {
    }
    void checkOtherOutputs() const override
    {
        if (!options_.saveC.empty())
            checkOutputFile(options_.saveC, "C");
    }
    std::shared_ptr<const RecordEnvelope> run(const RunHooks& hooks) override
    {
        RunHooks withFiles = hooks;
        if (!options_.saveC.empty())
            withFiles.resultOut = &c_;
        if (given_.present()) {
            withFiles.givenA = &given_.a;
            withFiles.givenB = &given_.b;
        }
        RunRecord record = runGemm(config_, withFiles);  // InputError before anything runs -> exit 2 in main
        record.inputs = inputsOf(options_);  // the report's "Your matrices" line comes from the record
        return std::make_shared<const RunRecord>(std::move(record));
    }
    std::string writeOtherOutputs(const RecordEnvelope& record, std::ostream& out) const override
    {
        return saveResult(options_, c_, record.status, out)
                   ? std::string()
                   : "; " + options_.saveC + " not written (the run did not finish, so C is not whole)";
    }

private:
    RunOptions options_;
    GivenOperands given_;
    HostMatrix c_;
};

// --scheme picks the family: blocked GEMM, or online ABFT (online | offline | tmr).
std::unique_ptr<FamilyRun> configure(const CommandOptions& commandOptions)
{
    RunOptions options = runOptionsFrom(commandOptions);
    if (options.scheme != Scheme::Blocked)
        return std::make_unique<online_abft::OnlineRun>(options.online);
    GivenOperands given = loadGivenOperands(options);  // the shape and type follow from the files
    return std::make_unique<RunVerbBlockedRun>(options, std::move(given));
}

constexpr std::array<std::string_view, 6> kUsage{
    "gigacheck run --shape MxNxQ [--type f32|f64|bf16|f16] [--backend auto|cpu|cuda]",
    "  [--strategy none|s1|s2|s3|s4|auto] [--mem SIZE] [--errors K] [--collinear row|col|none]",
    "  [--inject-at [TARGET:]R,C[:DELTA][@STEP]]... [--fault delta|bitflip:B[+B2]] [--extent cell|row:L|col:L|tile:S] "
    "[--seed S]",
    "  [--dist uniform|normal|wide] [--tile 8|16|32] [--no-abft] [--json FILE] ...",
    "gigacheck run --shape MxNxQ --scheme online|offline|tmr [--panel B] [--check-every FQ]",
    "  [--checksums K] [--target result|checksum-row|checksum-col|a|b] ...",
};

}  // namespace
}  // namespace gigacheck::run_verb

namespace gigacheck {

const FamilyCommand& runVerbCommand()
{
    static const FamilyCommand c{
        "multiply, inject faults, detect and correct them, print the report", run_verb::kUsage,
        "Multiplies A (MxN) by B (NxQ) with ABFT checksums under a device-memory cap,\ninjects the requested faults, "
        "detects and corrects them, checks the result\nagainst an independent reference and prints the report.\n"
        "Exit status: 0 verified correct, 1 uncorrectable errors remain, the reference\ndisagrees or injected faults "
        "no check saw changed C, 2 bad input or a failure,\n3 not verified (--no-abft, or TMR cells without a "
        "majority, and no full reference).",
        &run_verb::runOptionSpecs, &run_verb::configure};
    return c;
}

}  // namespace gigacheck
