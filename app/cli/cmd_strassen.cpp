// gigacheck strassen: one memory-efficient Strassen product (seed 001), its report and record.
#include "commands.hpp"
#include "output_files.hpp"

#include "command_line.hpp"
#include "device_check.hpp"
#include "interrupt.hpp"
#include "run_options.hpp"

#include "gigacheck/strassen.hpp"

#include <fstream>
#include <iostream>

namespace cli {
using namespace gigacheck;

int strassenCommand(const QStringList& args)
{
    QCommandLineParser parser;
    const std::string variants = joinedNames<StrassenVariant>("|");
    parser.addOptions({
        option("shape", "A is M x N, B is N x Q (required).", "MxNxQ"),
        option("levels", "Strassen levels, 0..4 (1); fewer when a dimension is smaller than 2^L. With --devices: the decomposition is the first, the others run inside each task.", "L"),
        option("variant", "msmes | winograd | workspace | accumulate (msmes).", "V"),
        option("type", "f32 | f64 | tf32 (f32).", "T"),
        option("backend", "auto | cpu | cuda (auto).", "B"),
        option("device", "CUDA device number.", "N"),
        option("devices", "devices to spread the work over (1).", "G"),
        option("decomposition", "2d | winograd: the multi-device decomposition (winograd).", "D"),
        option("exact-restore", "Restore A and B from the host copy instead of recovering them in floating point."),
        option("inject-at", "A fault at cell R,C (from 0) of c (default), a or b, between stages (c: after the first "
                            "product stage, a / b: after the first addition stage) or right after leaf product K "
                            "(@K, one device); the quadrant form c:Q, a:Q, b:Q (Q 0..3) strikes the quadrant's "
                            "middle cell; product:K[:R,C] the result of leaf product K right after it. Adds DELTA "
                            "(default: 1000 x the typical value, or --fault's bit flip). Repeatable.",
               "[TARGET:]R,C[:DELTA][@K]"),
        option("fault", "What a fault without its own DELTA does: add a delta, or flip bit B of the stored element "
                        "(default: the top exponent bit), or bits B and B2 of it. Default delta.",
               "delta|bitflip:B|bitflip:B+B2"),
        option("sums", "beside | inline: CUDA sums that do not wait for the product just issued run beside it on a "
                    "side stream (beside), or every op in issue order on one stream (inline).", "WHERE"),
        option("check-leaves", "ABFT on every leaf product: its column checksums checked on its C blocks right after it "
                            "(one device)."),
        option("leaf", "cublas | kernel: CUDA leaves by cuBLAS (one GEMM per target) or the thesis's multi-target kernel (cublas).", "K"),
        option("seed", "Seed of the inputs (1).", "S"),
        option("dist", "uniform | normal | wide (uniform).", "D"),
        option("integers", "Small integer inputs: every level is exact."),
        option("reference", "auto | full | none: the FP64 reference product on the host, which takes part in the "
                            "verdict (auto: full up to 2^34 multiply-adds).", "R"),
        option("no-abft", "No checksums of A, B and C (timing); the reference alone verifies, or nothing does."),
        option("json", "Write the run record to FILE.", "FILE"),
        option("quiet", "Print only the verdict line."),
    });
    if (!parseCommandLine(parser, QStringLiteral("strassen"),
                          QStringLiteral("Multiplies A (MxN) by B (NxQ) with memory-efficient Strassen (Krishnan's thesis): "
                                         "in-place sums in A and B,\nproducts accumulated into C, A and B recovered; "
                                         "checksums verify A, B and C.\nExit status: 0 verified correct, 1 "
                                         "C is wrong (uncorrectable, or the reference disagrees), 2 bad input or a "
                                         "failure, 3 not verified (--no-abft --reference none)."),
                          args))
        return kExitVerified;
    if (!parser.isSet(QStringLiteral("shape")))
        throw InputError("strassen needs --shape MxNxQ (see gigacheck strassen --help)");
    StrassenConfig c;
    const auto value = [&](const char* name) { return text(parser.value(QString::fromLatin1(name))); };
    const auto set = [&](const char* name) { return parser.isSet(QString::fromLatin1(name)); };
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
    if (set("sums")) {
        const std::string where = value("sums");
        if (where != "beside" && where != "inline")
            throw InputError("--sums '" + where + "': expected beside or inline");
        c.sumsBeside = where == "beside";
    }
    if (set("leaf")) {
        const std::string leaf = value("leaf");
        if (leaf != "cublas" && leaf != "kernel")
            throw InputError("--leaf '" + leaf + "': expected cublas or kernel");
        c.multiTargetKernel = leaf == "kernel";
    }
    if (set("reference")) {
        const std::string ref = value("reference");
        if (ref != "auto" && ref != "full" && ref != "none")
            throw InputError("--reference '" + ref + "': expected auto, full or none");
        c.reference = ref != "none";
        c.referenceAlways = ref == "full";
    }
    c.verify = !set("no-abft");
    for (const QString& f : parser.values(QStringLiteral("inject-at")))
        c.faults.push_back(parseStrassenFault(text(f)));
    if (set("fault"))
        c.faultModel = optionValue(parser, QStringLiteral("fault"), parseFaultModelSpec);
    if (set("seed"))
        c.seed = parseInteger<std::uint64_t>(value("seed"), 0, 1 << 30, "a seed (--seed)");
    if (set("dist"))
        c.distribution = distributionFromString(value("dist"));
    c.integerInputs = set("integers");
    c.distribute = set("devices") || set("decomposition");
    const std::string json = set("json") ? value("json") : std::string();
    if (set("json") && json.empty())
        throw InputError("--json needs a file name");
    requireDevice(c.device, c.backend);
    if (!json.empty())
        checkWritable(json, "run record");

    const CancellableSection cancellable;
    auto backend = makeStrassenBackend(c);
    const StrassenResult r = runStrassen(c, *backend, nullptr, &cancelRequested());
    cancellable.holdSignals();  // a signal from here waits: the record is written whole
    if (!json.empty())
        writeTextFile(json, strassenRecordJson(r) + "\n", "run record");
    if (set("quiet"))
        std::cout << (r.status == "ok" ? "verified correct" : r.status == "not_verified" ? "not verified" : "NOT verified correct")
                  << "\n";
    else
        std::cout << formatStrassenReport(r);
    cancellable.release(r.status == "cancelled");
    if (r.status == "failed" || r.status == "cancelled") {
        std::cerr << "gigacheck: error: strassen run " << r.status << (r.error.empty() ? "" : ": " + r.error) << "\n";
        return kExitFailure;
    }
    if (r.status == "not_verified") {
        std::cerr << "gigacheck: not verified: " << strassenNotVerifiedReason(r) << "\n";
        return kExitNotVerified;
    }
    if (r.status != "ok") {
        std::cerr << "gigacheck: " << (r.referenceMismatches > 0 ? "C does not match the reference" : "uncorrectable errors remain")
                  << "\n";
        return kExitUncorrectable;
    }
    return kExitVerified;
}

}  // namespace cli
