// gigacheck strassen: one memory-efficient Strassen product, its report and record.
#include "families/strassen/cli/verb.hpp"

#include "families/cli/option_groups.hpp"
#include "families/strassen/run/strassen_run.hpp"
#include "gigacheck/fault_grammar.hpp"
#include "gigacheck/strassen.hpp"

#include <array>

namespace gigacheck::strassen {
namespace {

std::vector<OptionSpec> options()
{
    return {
        {"shape", "A is M x N, B is N x Q (required).", "MxNxQ"},
        {"levels", "Strassen levels, 0..4 (1); fewer when a dimension is smaller than 2^L. With --devices: the "
                   "decomposition is the first, the others run inside each task.", "L"},
        {"variant", "msmes | winograd | workspace | accumulate (msmes).", "V"},
        {"type", "f32 | f64 | tf32 (f32).", "T"},
        {"backend", "auto | cpu | cuda (auto).", "B"},
        {"device", "CUDA device number.", "N"},
        {"devices", "devices to spread the work over (1).", "G"},
        {"decomposition", "2d | winograd: the multi-device decomposition (winograd).", "D"},
        {"exact-restore", "Restore A and B from the host copy instead of recovering them in floating point."},
        {"inject-at", "A fault at cell R,C (from 0) of c (default), a or b, between stages (c: after the first "
                      "product stage, a / b: after the first addition stage) or right after leaf product K "
                      "(@K, one device); the quadrant form c:Q, a:Q, b:Q (Q 0..3) strikes the quadrant's "
                      "middle cell; product:K[:R,C] the result of leaf product K right after it. Adds DELTA "
                      "(default: 1000 x the typical value, or --fault's bit flip). Repeatable.",
         "[TARGET:]R,C[:DELTA][@K]", "", true},
        {"fault", "What a fault without its own DELTA does: add a delta, or flip bit B of the stored element "
                  "(default: the top exponent bit), or bits B and B2 of it. Default delta.",
         "delta|bitflip:B|bitflip:B+B2"},
        {"sums", "beside | inline: CUDA sums that do not wait for the product just issued run beside it on a "
                 "side stream (beside), or every op in issue order on one stream (inline).", "WHERE"},
        {"check-leaves", "ABFT on every leaf product: its column checksums checked on its C blocks right after it "
                         "(one device)."},
        {"leaf", "cublas | kernel | cutlass: CUDA leaves by cuBLAS (one GEMM per target), the thesis's multi-target "
                 "kernel (FP32, FP64), or the CUTLASS TF32 kernel of Hopper (--type tf32; shapes it cannot take run "
                 "cuBLAS TF32, the report says how many) (cublas).", "K"},
        {"seed", "Seed of the inputs (1).", "S"},
        {"dist", "uniform | normal | wide (uniform).", "D"},
        {"integers", "Small integer inputs: every level is exact."},
        {"reference", "auto | full | none: the FP64 reference product on the host, which takes part in the "
                      "verdict (auto: full up to 2^34 multiply-adds).", "R"},
        {"no-abft", "No checksums of A, B and C (timing); the reference alone verifies, or nothing does."},
        cli::jsonOption("Write the run record to FILE."),
        cli::quietOption(),
    };
}

// One of the words a choice option takes, or InputError naming them.
std::string choice(const CommandOptions& options, const char* name, std::initializer_list<const char*> words,
                   const char* expected)
{
    const std::string v = options.value(name);
    for (const char* w : words)
        if (v == w)
            return v;
    throw InputError(std::string("--") + name + " '" + v + "': expected " + expected);
}

StrassenConfig configFrom(const CommandOptions& options)
{
    if (!options.isSet("shape"))
        throw InputError("strassen needs --shape MxNxQ (see gigacheck strassen --help)");
    StrassenConfig c;
    const auto value = [&](const char* name) { return options.value(name); };
    const auto set = [&](const char* name) { return options.isSet(name); };
    c.shape = parseShape(value("shape"));
    if (set("levels"))
        c.levels = parseInteger<int>(value("levels"), 0, kMaxStrassenLevels, "a level count (--levels)");
    if (set("variant"))
        c.variant = strassenVariantFromString(value("variant"));
    if (set("type")) {
        const std::string t = value("type");
        if (t == "tf32") {
            c.precision = Precision::F32;
            c.tf32 = true;
        } else if (t == "f32" || t == "f64") {
            c.precision = precisionFromString(t);
        } else {
            throw InputError("--type '" + t + "': expected f32, f64 or tf32");
        }
    }
    if (set("backend"))
        c.backend = backendFromString(value("backend"));
    if (set("device"))
        c.device = parseDeviceNumber(value("device"));
    if (set("devices"))
        c.devices = parseInteger<int>(value("devices"), 1, 64, "a device count (--devices)");
    if (set("decomposition"))
        c.decomposition = strassenDecompositionFromString(value("decomposition"));
    c.exactRestore = set("exact-restore");
    c.checkLeaves = set("check-leaves");
    if (set("sums"))
        c.sumsBeside = choice(options, "sums", {"beside", "inline"}, "beside or inline") == "beside";
    if (set("leaf")) {
        const std::string leaf = choice(options, "leaf", {"cublas", "kernel", "cutlass"}, "cublas, kernel or cutlass");
        c.multiTargetKernel = leaf == "kernel";
        c.cutlassLeaves = leaf == "cutlass";
    }
    if (set("reference")) {
        const std::string ref = choice(options, "reference", {"auto", "full", "none"}, "auto, full or none");
        c.reference = ref != "none";
        c.referenceAlways = ref == "full";
    }
    c.verify = !set("no-abft");
    for (const std::string& f : options.values("inject-at"))
        c.faults.push_back(parseStrassenFault(f));
    if (set("fault"))
        c.faultModel = options.value("fault", [](const std::string& s) { return parseFaultModelSpec(s); });
    if (set("seed"))
        c.seed = parseInteger<std::uint64_t>(value("seed"), 0, 1 << 30, "a seed (--seed)");
    if (set("dist"))
        c.distribution = distributionFromString(value("dist"));
    c.integerInputs = set("integers");
    c.distribute = set("devices") || set("decomposition");
    return c;
}

std::unique_ptr<FamilyRun> configure(const CommandOptions& options)
{
    return std::make_unique<StrassenRun>(configFrom(options));
}

constexpr std::array<std::string_view, 4> kUsage{
    "gigacheck strassen --shape MxNxQ [--levels L] [--variant msmes|winograd|workspace|accumulate]",
    "  [--type f32|f64|tf32] [--backend auto|cpu|cuda] [--devices G] [--decomposition 2d|winograd]",
    "  [--exact-restore] [--inject-at [TARGET:]R,C[:DELTA][@K]|c:Q|a:Q|b:Q|product:K]...",
    "  [--fault delta|bitflip:B[+B2]] [--json FILE]"};

}  // namespace

const FamilyCommand& command()
{
    static const FamilyCommand c{
        "memory-efficient Strassen: in-place stages, recovery, checksums", kUsage,
        "Multiplies A (MxN) by B (NxQ) with memory-efficient Strassen (Krishnan's thesis): in-place sums in A and "
        "B,\nproducts accumulated into C, A and B recovered; checksums verify A, B and C.\nExit status: 0 verified "
        "correct, 1 C is wrong (uncorrectable, the reference disagrees, or injected faults no check saw),\n2 bad "
        "input or a failure, 3 not verified (--no-abft --reference none, or --reference none where C's\nchecks "
        "cannot see a cell off by 1 % of max |C|).",
        &options, &configure};
    return c;
}

}  // namespace gigacheck::strassen
