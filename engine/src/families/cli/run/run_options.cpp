// gigacheck run's options (run_options.hpp).
#include "families/cli/run/run_options.hpp"

#include "families/cli/option_groups.hpp"

#include "gigacheck/fault_grammar.hpp"
#include "gigacheck/fault_models.hpp"

#include "gigacheck/weighted_checksums.hpp"

#include <limits>
#include <optional>

namespace gigacheck::run_verb {

namespace {

// An option's values, as in f32|f64, from the enum's name table.
template <class E> std::string valuesOf() { return joinedNames<E>("|"); }

}  // namespace

FaultAt parseInjectAt(const std::string& text)
{
    const InjectSpec spec = parseInjectSpec(text);
    if (spec.target == InjectTarget::Product || spec.quadrant)
        throw InputError("--inject-at '" + text + "': product:K and the quadrant form TARGET:Q place Strassen's faults "
                         "(gigacheck strassen); run takes [TARGET:]R,C[:DELTA][@STEP] with TARGET c, a, b, "
                         "checksum-row or checksum-col");
    return FaultAt{spec.row, spec.col, spec.delta, spec.when};
}

void parseFaultModel(const std::string& text, FaultSpec& spec)
{
    const FaultModelSpec model = parseFaultModelSpec(text);
    spec.model = model.model;
    spec.bit = model.bit;
    spec.bit2 = model.bit2;
}

std::vector<OptionSpec> runOptionSpecs()
{
    return {
        {"shape", "Problem size: A is M x N, B is N x Q (required unless --load-a / --load-b give it).",
         "MxNxQ"},
        {"load-a", "Read A from a NumPy .npy file (2-D float32 or float64, C or Fortran order); needs "
         "--load-b. The shape and the type follow from the files.", "A.npy"},
        {"load-b", "Read B from a NumPy .npy file (its rows: A's columns).", "B.npy"},
        {"save-c", "Write the result C to a NumPy .npy file once the run has ended.", "C.npy"},
        {"type", "Values: f32 (float) or f64 (double); bf16 / f16: FP32 values whose products read 16-bit "
         "inputs (BF16 / FP16 on the tensor cores, accumulated in FP32, C in FP32: --gemm cublas-bf16 / "
         "cublas-f16; on the CPU emulated). f16 refuses operands beyond 65504. With --scheme online / offline "
         "each panel product reads 16-bit inputs (one checksum vector, faults in C; not tmr). On a Hopper GPU "
         "the CUTLASS BF16 / FP16 kernel multiplies wherever it takes the product (depth and width multiples "
         "of 8) and writes C's sums in its epilogue, so a check reads no C; elsewhere cuBLAS. Default f32.",
         valuesOf<Precision>() + "|bf16|f16"},
        {"backend", "auto (CUDA when a device exists, else the CPU), cpu or cuda. Default auto.",
         valuesOf<BackendKind>()},
        {"device", "CUDA device number, as `gigacheck devices` lists them. Default: the first.", "N"},
        {"devices", "Spread the C blocks over G devices (each with its own buffers under the cap, its own "
         "queues): on CUDA --device first, then the other GPUs, repeated when there are fewer; "
         "on the CPU G emulated devices. Default 1.",
         "G"},
        {"strategy", "Buffering strategy under the memory cap (the Gigacheck report, section 5); auto: the cost-model "
         "planner picks strategy and blocking. Default s1.",
         valuesOf<StrategyKind>() + "|auto"},
        {"mem", "Device-memory cap: B, KB, MB, GB, KiB, MiB, GiB. Default: the device's memory "
         "(CPU: 1 GiB).",
         "SIZE"},
        {"h2d-staging", "How the CUDA backend's block loads leave the host: pack (into contiguous pinned "
         "staging by host threads, then one contiguous copy), direct (one 2D copy out of "
         "the host matrix) or auto (whichever the cost model predicts faster with the host's "
         "pack rate from devices --measure; direct when none is stored). Default auto.",
         valuesOf<H2dStaging>()},
        {"errors", "Random faults per chosen block product. Default 0.", "K"},
        {"collinear", "Arrange the random faults on one row, one column, or scattered (none). Default none.",
         valuesOf<Collinearity>()},
        {"inject-at", "A fault at row R, column C (from 0) of TARGET: c, the result (default); with an online "
         "scheme also a / b (the inputs) or checksum-row / checksum-col. Adds DELTA (default: "
         "a random delta, or --fault's bit flip) after step STEP (default: the last; online "
         "schemes: A / B before their checksums; tmr: STEP names the replica). A TARGET: prefix "
         "and --target must agree. Repeatable.",
         "[TARGET:]R,C[:DELTA][@STEP]", "", true},
        {"fault", "Fault model: add a delta, or flip bit B of the stored value (default: the top exponent "
         "bit), or bits B and B2 of the same value. Default delta.",
         "delta|bitflip:B|bitflip:B+B2"},
        {"extent", "How far each fault reaches from its cell (blocked scheme): one cell, L cells of its row or "
         "column of the block (a warp's worth: 32), or an S x S tile; clipped to the block. Default cell.",
         "cell|row[:L]|col[:L]|tile[:S]"},
        {"target", "Where faults land: the result block or its checksum row / column; with an online "
         "scheme also the inputs a / b. The blocked scheme on the CPU also takes faults of the checker "
         "itself: check (a row / column check reports a mismatch over a clean line), correction (the "
         "value a correction writes is hit; with --inject-at or --errors), encoding-a / encoding-b (an "
         "entry of A's / B's checksum hit after encoding). Default result.",
         valuesOf<OnlineTarget>() + "|check|correction|encoding-a|encoding-b"},
        {"scheme", "blocked (blocked GEMM under a cap, the Gigacheck report; the default), online (panel "
         "products checked every FQ steps), offline (checked at the end only) or tmr (three "
         "products and a vote).",
         valuesOf<Scheme>()},
        {"panel", "Online / offline: panel width b of the outer products C += A_j B_j. Default min(N, 1024).",
         "B"},
        {"check-every", "Online: verify the checksums every FQ steps (and after the last). Default 1.", "FQ"},
        {"checksums", "Online / offline: K weighted checksum vectors per axis (up to K errors per check). "
         "Default 1.",
         "K"},
        {"column-blocks", "Online / offline on the GPU: C in G column blocks, each with its own checksum "
         "column, built and checked on its own stream with no join between them (the "
         "checks hide under the other block's GEMM). auto: 2 when q >= 4096 on the device "
         "path (K = 1, faults in C, cublas), else 1. Default auto.",
         "G|auto"},
        {"merge-steps", "Online / offline: the steps between two checks as one GEMM of their panels (no "
         "check sees the C in between; a fault after a step splits its group there). auto: on "
         "the GPU's device path, one GEMM per step on the CPU. Default auto.",
         valuesOf<StepMerge>()},
        {"fault-scope", "Random faults go into one block product or every one. Default one.", valuesOf<FaultScope>()},
        {"seed", "Seed of the inputs and of the faults. Default 1.", "S"},
        {"dist", "Input values: uniform U(-1,1), normal N(0,1), wide (six decades). Default uniform.",
         valuesOf<Distribution>()},
        {"gemm", "Product kernel on the CUDA backend. cutlass-tf32: a TF32 kernel for Hopper GPUs whose "
         "epilogue also writes C's row and column sums (builds with CUTLASS; gigacheck devices says "
         "whether this one has it). tf32x3: FP32-accurate products from three TF32 products of the "
         "operands' big and small parts, checked as FP32 (emulated exactly on the CPU). "
         "The online and offline schemes on the GPU take cublas, cublas-tf32, "
         "cutlass-tf32 (each panel product writes C's sums, so a check reads no C) or tf32x3 (each "
         "panel split into TF32 parts: FP32 accuracy), and "
         "cublas-bf16 / cublas-f16 (what --type bf16|f16 chooses). "
         "The CPU multiplies with OpenBLAS; there cublas-tf32 and cutlass-tf32 "
         "are emulated (operands rounded to TF32, FP32 products) and the others run as OpenBLAS. "
         "Default cublas.",
         valuesOf<GemmVariant>()},
        {"tile", "Tile side of the tiled kernel. Default 32.", "8|16|32"},
        {"no-abft", "Plain product: no checksums, no detection or correction."},
        {"reference", "Independent reference product: auto (full up to 2^34 multiply-adds, else 64 sampled "
         "rows), full, sample or none. Default auto.",
         valuesOf<ReferenceMode>()},
        {"json", "Write the run record (JSON) to FILE, also when the run fails or is interrupted.", "FILE"},
        gigacheck::cli::quietOption(),
    };
}

namespace {

// --inject-at's TARGET (run takes cells of c, a, b and the checksums) as the online family's target.
OnlineTarget onlineTargetOf(InjectTarget t)
{
    switch (t) {
    case InjectTarget::A: return OnlineTarget::A;
    case InjectTarget::B: return OnlineTarget::B;
    case InjectTarget::ChecksumRow: return OnlineTarget::ChecksumRow;
    case InjectTarget::ChecksumCol: return OnlineTarget::ChecksumCol;
    default: return OnlineTarget::Result;
    }
}

// A TARGET: prefix of the f-th --inject-at that --target contradicts.
InputError targetConflict(const CommandOptions& options, std::size_t f, const std::string& target)
{
    const std::string at = options.values("inject-at").at(f);
    return InputError("--inject-at " + at + " names its target, and --target " + target + " another one: drop "
                      "--target or make them the same (--inject-at TARGET:R,C, TARGET c, a, b, checksum-row or "
                      "checksum-col)");
}

// --scheme online | offline | tmr: the shared options carried over, the blocked GEMM's refused.
void onlineOptionsFrom(const CommandOptions& options, const std::vector<std::optional<InjectTarget>>& prefixes,
                       RunOptions& o)
{
    const auto set = [&](const char* name) { return options.isSet(name); };
    const auto value = [&](const char* name, auto parse) {
        return options.value(name, parse);
    };
    const std::string scheme(toString(o.scheme));
    for (const char* name : {"strategy", "mem", "collinear", "fault-scope", "tile", "no-abft", "devices", "h2d-staging",
                             "extent"})
        if (set(name))
            throw InputError(std::string("--") + name + " belongs to --scheme blocked (the memory-capped blocked "
                             "GEMM), not to --scheme " + scheme);
    if (o.scheme == Scheme::Tmr)
        for (const char* name : {"panel", "check-every", "checksums", "column-blocks", "merge-steps"})
            if (set(name))
                throw InputError(std::string("--") + name + " has no meaning for --scheme tmr (three whole "
                                 "products and a vote)");
    if (o.scheme == Scheme::Offline && set("check-every"))
        throw InputError("--scheme offline checks only after the last step; use --scheme online --check-every FQ");

    const RunConfig& c = o.config;
    OnlineConfig& n = o.online;
    n.shape = c.shape;
    n.precision = c.precision;
    n.distribution = c.distribution;
    n.seed = c.seed;
    n.backend = c.backend;
    n.device = c.device;
    n.scheme = o.scheme;
    n.gemm = c.gemm;
    n.reference = c.reference;
    n.randomErrors = c.faults.count;
    n.model = c.faults.model;
    n.bit = c.faults.bit;
    n.bit2 = c.faults.bit2;
    const OnlineTarget target = set("target") ? value("target", [](const std::string& s) {
        return onlineTargetFromString(s);
    })
                                              : OnlineTarget::Result;
    if (set("target"))
        for (std::size_t f = 0; f < prefixes.size(); ++f)
            if (prefixes[f] && onlineTargetOf(*prefixes[f]) != target)
                throw targetConflict(options, f, std::string(toString(target)));
    if (target != OnlineTarget::Result && c.faults.at.empty())
        throw InputError("--target " + std::string(toString(target)) + " needs --inject-at R,C (random faults go "
                         "into the result only)");
    for (std::size_t f = 0; f < c.faults.at.size(); ++f) {
        const FaultAt& at = c.faults.at[f];
        n.faults.push_back(OnlineFault{prefixes[f] ? onlineTargetOf(*prefixes[f]) : target, at.row, at.col, at.delta, at.step});
    }
    if (set("panel"))
        n.panel = value("panel", [](const std::string& s) {
            const auto p = parseInteger<std::int64_t>(s, 0, std::numeric_limits<std::int32_t>::max(), "a panel width");
            if (p == 0)
                throw InputError("the panel width must be at least 1");
            return p;
        });
    if (set("check-every"))
        n.checkEvery = value("check-every", [](const std::string& s) { return parseInteger<int>(s, 0, 1 << 30, "a step count"); });
    if (o.scheme == Scheme::Offline)
        n.checkEvery = 0;
    if (set("checksums"))
        n.checksums = value("checksums", [](const std::string& s) {
            return parseInteger<int>(s, 1, kMaxChecksums, "a number of checksum vectors");
        });
    if (set("column-blocks"))
        n.columnBlocks = value("column-blocks", [](const std::string& s) {
            return s == "auto" ? 0 : parseInteger<int>(s, 1, 8, "a number of column blocks (1..8) or auto");
        });
    if (set("merge-steps"))
        n.mergeSteps = value("merge-steps", [](const std::string& s) { return stepMergeFromString(s); });
}

// The blocked scheme's --inject-at cells are cells of C: a c: prefix agrees with --target result
// or correction (a cell's fault, then its correction hit); the other targets are refused with
// where they are offered.
void blockedPrefixesFrom(const CommandOptions& options, const std::vector<std::optional<InjectTarget>>& prefixes,
                         FaultSpec& faults)
{
    for (std::size_t f = 0; f < prefixes.size(); ++f) {
        if (!prefixes[f])
            continue;
        const std::string at = options.values("inject-at").at(f);
        switch (*prefixes[f]) {
        case InjectTarget::A:
        case InjectTarget::B:
            throw InputError("--inject-at " + at + ": a cell of A or B is a fault of the online schemes (--scheme "
                             "online or offline); the blocked scheme's operand faults are a campaign's (gigacheck "
                             "campaign --target a|b)");
        case InjectTarget::ChecksumRow:
        case InjectTarget::ChecksumCol:
            throw InputError("--inject-at " + at + ": the blocked scheme places checksum faults at random (--errors K "
                             "--target " + std::string(toString(*prefixes[f])) + "); its --inject-at cells are cells "
                             "of c (an online scheme takes checksum cells)");
        default:
            if (options.isSet("target") && faults.target != FaultTarget::Result &&
                faults.target != FaultTarget::Correction)
                throw targetConflict(options, f, std::string(toString(faults.target)));
        }
    }
}

// --load-a / --load-b / --save-c: the paths only; run_inputs.cpp reads the files.
void filesFrom(const CommandOptions& options, RunOptions& o)
{
    const auto path = [&](const char* name, std::string& into) {
        if (!options.isSet(name))
            return;
        into = options.value(name);
        if (into.empty())
            throw InputError(std::string("--") + name + " needs a file name (got an empty one)");
    };
    path("load-a", o.loadA);
    path("load-b", o.loadB);
    path("save-c", o.saveC);
    if (o.loadA.empty() != o.loadB.empty())
        throw InputError(std::string("--") + (o.loadA.empty() ? "load-b" : "load-a") + " needs --" +
                         (o.loadA.empty() ? "load-a" : "load-b") + " too: the lab takes both of your matrices or "
                         "generates both");
    if (!o.loadA.empty() && options.isSet("dist"))
        throw InputError("--dist chooses generated values; with --load-a / --load-b the values are your files'");
}

}  // namespace

RunOptions runOptionsFrom(const CommandOptions& options)
{
    if (!options.positional().empty())
        throw InputError("unexpected argument '" + options.positional().front() +
                         "' (see gigacheck run --help)");
    if (!options.isSet("shape") && !options.isSet("load-a") &&
        !options.isSet("load-b"))
        throw InputError("missing --shape MxNxQ (e.g. --shape 2048x1024x1536) or --load-a A.npy --load-b B.npy");

    RunOptions o;
    RunConfig& c = o.config;
    const auto set = [&](const char* name) { return options.isSet(name); };
    const auto value = [&](const char* name, auto parse) {
        return options.value(name, parse);
    };
    const auto max64 = std::numeric_limits<std::uint64_t>::max();

    o.shapeGiven = set("shape");
    o.typeGiven = set("type");
    if (o.shapeGiven)
        c.shape = value("shape", parseShape);
    filesFrom(options, o);
    // bf16 / f16: FP32 storage, the product's inputs 16-bit (a GEMM variant, as TF32 is).
    std::optional<GemmVariant> sixteenBitGemm;
    if (set("type")) {
        const std::string type = options.value("type");
        if (type == "bf16" || type == "f16") {
            c.precision = Precision::F32;
            sixteenBitGemm = type == "bf16" ? GemmVariant::CublasBf16 : GemmVariant::CublasF16;
        } else {
            c.precision = value("type", [](const std::string& s) {
                try {
                    return precisionFromString(s);
                } catch (const InputError&) {
                    throw InputError("unknown type '" + s + "' (expected f32, f64, bf16 or f16)");
                }
            });
        }
    }
    if (set("backend"))
        c.backend = value("backend", [](const std::string& s) { return backendFromString(s); });
    if (set("device"))
        c.device = value("device", parseDeviceNumber);
    if (set("devices"))
        c.devices = value("devices", [](const std::string& s) { return parseInteger<int>(s, 1, kMaxRunDevices, "a device count"); });
    if (set("strategy")) {
        c.planByCostModel = options.value("strategy") == "auto";
        if (!c.planByCostModel)
            c.strategy = value("strategy", [](const std::string& s) { return strategyFromString(s); });
    }
    if (set("mem"))
        c.memCapBytes = value("mem", [](const std::string& s) { return parseSize(s); });
    if (set("errors"))
        c.faults.count = value("errors", [](const std::string& s) { return parseInteger<int>(s, 0, 1 << 20, "a count"); });
    if (set("collinear"))
        c.faults.collinear = value("collinear", [](const std::string& s) { return collinearityFromString(s); });
    // --inject-at [TARGET:]R,C[:DELTA][@STEP]: the cells, and each one's TARGET where it names one.
    std::vector<std::optional<InjectTarget>> prefixes;
    for (const std::string& at : options.values("inject-at")) {
        c.faults.at.push_back(parseInjectAt(at));
        const InjectSpec spec = parseInjectSpec(at);
        prefixes.push_back(spec.targetGiven ? std::optional(spec.target) : std::nullopt);
    }
    if (set("fault"))
        value("fault", [&](const std::string& s) { return parseFaultModel(s, c.faults), 0; });
    if (set("scheme"))
        o.scheme = value("scheme", [](const std::string& s) { return schemeFromString(s); });
    if (set("target")) {
        if (o.scheme == Scheme::Blocked)
            c.faults.target = value("target", [](const std::string& s) { return faultTargetFromString(s); });
        else
            value("target", [](const std::string& s) { return onlineTargetFromString(s); });
    }
    if (set("extent"))
        value("extent", [&](const std::string& s) { return parseFaultExtent(s, c.faults.extent, c.faults.extentLength), 0; });
    if (set("fault-scope"))
        c.faults.scope = value("fault-scope", [](const std::string& s) { return faultScopeFromString(s); });
    if (set("seed")) {
        c.seed = value("seed", [&](const std::string& s) { return parseInteger<std::uint64_t>(s, 0, max64, "a seed"); });
        c.faults.seed = c.seed;
    }
    if (set("dist"))
        c.distribution = value("dist", [](const std::string& s) { return distributionFromString(s); });
    if (set("gemm"))
        c.gemm = value("gemm", [](const std::string& s) { return gemmFromString(s); });
    if (sixteenBitGemm) {
        if (set("gemm") && c.gemm != *sixteenBitGemm)
            throw InputError("--type " + options.value("type") + " multiplies with --gemm " +
                             std::string(toString(*sixteenBitGemm)) + " (got --gemm " + std::string(toString(c.gemm)) +
                             ")");
        c.gemm = *sixteenBitGemm;
    }
    if (set("tile")) {
        c.tile = value("tile", [](const std::string& s) {
            const int tile = parseInteger<int>(s, 1, 1024, "a tile side");
            if (tile != 8 && tile != 16 && tile != 32)
                throw InputError("the tile side must be 8, 16 or 32");
            return tile;
        });
    }
    c.abft = !set("no-abft");
    if (set("h2d-staging"))
        c.h2dStaging = value("h2d-staging", [](const std::string& s) { return h2dStagingFromString(s); });
    if (set("reference"))
        c.reference = value("reference", [](const std::string& s) { return referenceModeFromString(s); });
    if (set("json")) {
        o.jsonPath = options.value("json");
        if (o.jsonPath.empty())
            throw InputError("--json needs a file name (got an empty one); leave --json out to write no record");
    }
    if (o.scheme == Scheme::Blocked)
        blockedPrefixesFrom(options, prefixes, c.faults);
    // Explicit positions are cells of the result: with a checksum target the report would name a
    // target the fault never reached.
    if (!c.faults.at.empty() && c.faults.target != FaultTarget::Result && c.faults.target != FaultTarget::Correction &&
        !isCheckerFault(c.faults.target))
        throw InputError("--inject-at places faults in the result C, but --target " +
                         std::string(toString(c.faults.target)) + " asks for the checksum " +
                         (c.faults.target == FaultTarget::ChecksumRow ? "row" : "column") +
                         "; drop one of them (random checksum faults: --errors K --target " +
                         std::string(toString(c.faults.target)) + ")");
    o.quiet = set("quiet");
    requireDevice(c.device, c.backend);  // an absent --device: refused before anything runs
    if (o.scheme == Scheme::Blocked) {
        if (!c.faults.at.empty() && (c.faults.target == FaultTarget::Check || c.faults.target == FaultTarget::EncodingA ||
                                     c.faults.target == FaultTarget::EncodingB))
            throw InputError("--target " + std::string(toString(c.faults.target)) + " takes random faults (--errors K), "
                             "not --inject-at");
        for (const char* name : {"panel", "check-every", "checksums", "column-blocks", "merge-steps"})
            if (set(name))
                throw InputError(std::string("--") + name + " belongs to the online schemes; add --scheme online "
                                 "(or offline) or drop it");
        return o;
    }
    if (!o.loadA.empty() || !o.saveC.empty())
        throw InputError("--load-a / --load-b / --save-c work with --scheme blocked (the default), not --scheme " +
                         std::string(toString(o.scheme)));
    onlineOptionsFrom(options, prefixes, o);
    return o;
}

}  // namespace gigacheck::run_verb
