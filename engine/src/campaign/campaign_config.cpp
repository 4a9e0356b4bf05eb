// A campaign's vocabulary, its validation, and how each run is drawn from the campaign seed so
// that any single run can be reproduced alone (`gigacheck run` or the lab).
#include "gigacheck/campaign.hpp"

#include "campaign/operand_faults.hpp"

#include "gigacheck/defaults.hpp"
#include "gigacheck/plan.hpp"

#include <algorithm>
#include <cmath>
#include <charconv>
#include <cstdio>
#include <set>
#include <utility>

namespace gigacheck {

namespace {

// Reproducible on every machine (std distributions are implementation-defined): splitmix64.
class CampaignRng {
public:
    explicit CampaignRng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next()
    {
        std::uint64_t x = (state_ += 0x9E3779B97F4A7C15ull);
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
        return x ^ (x >> 31);
    }
    std::int64_t below(std::int64_t n) { return n <= 1 ? 0 : std::int64_t(next() % std::uint64_t(n)); }

private:
    std::uint64_t state_;
};

int bitsOf(CampaignType t) { return t == CampaignType::F64 ? 64 : 32; }

std::uint64_t defaultCap(const CampaignConfig& c)
{
    // A quarter of A + B + C: every strategy needs several blocks, so faults land in one block
    // product among many as in a real out-of-core run.
    const Shape& s = c.shape;
    const double bytes = (double(s.m) * double(s.n) + double(s.n) * double(s.q) + double(s.m) * double(s.q)) *
                         double(c.type == CampaignType::F64 ? 8 : 4);
    return std::max<std::uint64_t>(std::uint64_t(bytes / 4), 64 * 1024);  // tiny shapes: room for any strategy
}

}  // namespace

std::uint64_t campaignCapBytes(const CampaignConfig& c, StrategyKind strategy)
{
    if (c.memCapBytes)
        return c.memCapBytes;
    return strategy == StrategyKind::None ? 0 : defaultCap(c);
}

std::string_view toString(CampaignTarget t)
{
    switch (t) {
    case CampaignTarget::Result: return "result";
    case CampaignTarget::Checksum: return "checksum";
    case CampaignTarget::A: return "a";
    case CampaignTarget::B: return "b";
    case CampaignTarget::Any: return "any";
    case CampaignTarget::AAfter: return "a-after";
    case CampaignTarget::BAfter: return "b-after";
    }
    return "?";
}

CampaignTarget campaignTargetFromString(std::string_view s)
{
    for (CampaignTarget t : {CampaignTarget::Result, CampaignTarget::Checksum, CampaignTarget::A, CampaignTarget::B,
                             CampaignTarget::Any, CampaignTarget::AAfter, CampaignTarget::BAfter})
        if (toString(t) == s)
            return t;
    if (s == "a-before")  // a and b: before the checksums, the names kept from before the split
        return CampaignTarget::A;
    if (s == "b-before")
        return CampaignTarget::B;
    throw InputError("unknown campaign target '" + std::string(s) +
                     "' (expected result, checksum, a, b, a-before, b-before, a-after, b-after or any)");
}

std::string_view toString(CampaignType t)
{
    switch (t) {
    case CampaignType::F32: return "f32";
    case CampaignType::F64: return "f64";
    case CampaignType::Tf32: return "tf32";
    }
    return "?";
}

CampaignType campaignTypeFromString(std::string_view s)
{
    for (CampaignType t : {CampaignType::F32, CampaignType::F64, CampaignType::Tf32})
        if (toString(t) == s)
            return t;
    throw InputError("unknown type '" + std::string(s) + "' (expected f32, f64 or tf32)");
}

void parseCampaignFault(std::string_view text, CampaignConfig& c)
{
    if (text == "none") {
        c.inject = false;
        return;
    }
    c.inject = true;
    if (text == "delta") {
        c.model = FaultModel::Delta;
        c.bit = -1;
        return;
    }
    if (text == "bitflip:any" || text == "bitflip") {
        c.model = FaultModel::BitFlip;
        c.bit = -1;
        return;
    }
    if (text.rfind("bitflip:", 0) == 0) {
        const std::string_view digits = text.substr(8);
        int bit = -1;
        const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), bit);
        if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size() || bit < 0 || bit > 63)
            throw InputError("'" + std::string(digits) + "' is not a bit number (0-63)");
        c.model = FaultModel::BitFlip;
        c.bit = bit;
        return;
    }
    throw InputError("expected bitflip:any, bitflip:B (B = bit to flip, 0 = least significant), delta or none");
}

std::string campaignFaultText(const CampaignConfig& c)
{
    if (!c.inject)
        return "none";
    if (c.model == FaultModel::Delta)
        return "delta";
    return c.bit < 0 ? "bitflip:any" : "bitflip:" + std::to_string(c.bit);
}

void validateCampaign(const CampaignConfig& c, const DeviceInfo& device)
{
    if (c.runs < 1)
        throw InputError("a campaign needs at least one run (--runs N, N >= 1)");
    // The seed-002 schemes run (gigacheck run --scheme online|offline|tmr), but not in campaigns:
    // a campaign's run is a runGemm RunRecord, classified from its per-block fault report,
    // reproduced as a blocked `gigacheck run` and replayed in the lab's block animation, and
    // its --target / --strategy / --mem vocabulary is the blocked family's.
    if (c.scheme == "online" || c.scheme == "offline" || c.scheme == "tmr")
        throw InputError("--scheme " + c.scheme +
                         ": campaigns run the blocked scheme only (each run is a blocked GEMM run, classified from "
                         "its per-block fault report and replayed in the lab's block animation); inject into the "
                         "seed-002 schemes one run at a time with gigacheck run --scheme " + c.scheme +
                         " --inject-at ROW,COL");
    if (c.scheme != "blocked")
        throw InputError("unknown ABFT scheme '" + c.scheme + "': campaigns run only 'blocked'");
    if (c.strategies.empty())
        throw InputError("a campaign needs at least one strategy");
    if (c.faultsPerRun < 1)
        throw InputError("--faults-per-run must be at least 1");
    if (c.inject && c.model == FaultModel::BitFlip && c.bit >= bitsOf(c.type))
        throw InputError("bit " + std::to_string(c.bit) + " is outside an " + std::string(toString(c.type)) +
                         " element (bits 0-" + std::to_string(bitsOf(c.type) - 1) + ")");
    const Shape& s = c.shape;
    if (s.m < 1 || s.n < 1 || s.q < 1)
        throw InputError("every dimension of the shape must be at least 1");
    const bool onA = c.target == CampaignTarget::A || c.target == CampaignTarget::AAfter;
    const bool onB = c.target == CampaignTarget::B || c.target == CampaignTarget::BAfter;
    const double cells = onA   ? double(s.m) * double(s.n)
                         : onB ? double(s.n) * double(s.q)
                         : c.target == CampaignTarget::Any
                             ? std::min({double(s.m) * double(s.q), double(s.m) * double(s.n), double(s.n) * double(s.q)})
                             : double(s.m) * double(s.q);
    if (c.inject && (c.target == CampaignTarget::AAfter || c.target == CampaignTarget::BAfter))
        checkOperandAfterChecksums(s, nullptr);
    if (c.inject && double(c.faultsPerRun) > cells)
        throw InputError(std::to_string(c.faultsPerRun) + " faults per run do not fit in the target (" +
                         std::to_string(std::int64_t(cells)) + " elements)");
    // Every strategy must plan under the cap (InputError names the cap otherwise), and checksum faults
    // must fit in the smallest block's checksum row and column.
    const Precision p = c.type == CampaignType::F64 ? Precision::F64 : Precision::F32;
    for (StrategyKind k : c.strategies) {
        // A cap of 0 means the device's memory, as runGemm resolves it (kDefaultCpuMemCapBytes on the CPU).
        std::uint64_t cap = campaignCapBytes(c, k);
        if (cap == 0)
            cap = device.backend == BackendKind::Cuda && device.memoryBytes ? device.memoryBytes : kDefaultCpuMemCapBytes;
        const Plan plan = makePlan(s, p, k, cap, true);
        const std::int64_t rows = plan.rowsOf(plan.splitM - 1);
        const std::int64_t cols = plan.colsOf(plan.splitQ - 1);
        const bool checksums = c.target == CampaignTarget::Checksum || c.target == CampaignTarget::Any;
        if (c.inject && checksums && c.faultsPerRun > std::min(rows, cols))
            throw InputError(std::to_string(c.faultsPerRun) + " checksum faults per run do not fit: under " +
                             std::string(toString(k)) + " the smallest block has a checksum row of " +
                             std::to_string(cols) + " and a checksum column of " + std::to_string(rows) + " cells");
    }
}

CampaignRun planCampaignRun(const CampaignConfig& c, int index)
{
    CampaignRng rng(c.seed * 0xD1B54A32D192ED03ull + std::uint64_t(index) * 0x8CB92BA72F3D8DD7ull + 1);
    CampaignRun run;
    run.index = index;
    run.seed = rng.next() >> 1;  // kept below 2^63 so that every JSON reader keeps it exact
    run.strategy = c.strategies[std::size_t(index) % c.strategies.size()];
    if (!c.inject)
        return run;
    switch (c.target) {
    case CampaignTarget::Result: run.target = FaultTarget::Result; break;
    case CampaignTarget::Checksum: run.target = rng.below(2) ? FaultTarget::ChecksumCol : FaultTarget::ChecksumRow; break;
    case CampaignTarget::A: run.operand = 'a'; break;
    case CampaignTarget::B: run.operand = 'b'; break;
    case CampaignTarget::AAfter: run.operand = 'a'; run.afterChecksums = true; break;
    case CampaignTarget::BAfter: run.operand = 'b'; run.afterChecksums = true; break;
    case CampaignTarget::Any: {
        const std::int64_t pick = rng.below(5);
        run.target = pick == 1 ? FaultTarget::ChecksumRow : pick == 2 ? FaultTarget::ChecksumCol : FaultTarget::Result;
        run.operand = pick == 3 ? 'a' : pick == 4 ? 'b' : 0;
    }
    }
    if (c.model == FaultModel::BitFlip)
        run.bit = c.bit >= 0 ? c.bit : int(rng.below(bitsOf(c.type)));
    if (run.target == FaultTarget::Result) {
        // Distinct cells, uniform over C (or the operand): a soft error is as likely in any element.
        const std::int64_t rows = run.operand == 'b' ? c.shape.n : c.shape.m;
        const std::int64_t cols = run.operand == 'a' ? c.shape.n : c.shape.q;
        std::set<std::pair<std::int64_t, std::int64_t>> seen;
        while (int(run.positions.size()) < c.faultsPerRun) {
            const std::int64_t r = rng.below(rows), col = rng.below(cols);
            if (seen.insert({r, col}).second)
                run.positions.push_back(FaultAt{r, col, std::nullopt, std::nullopt});
        }
    }
    return run;
}

RunConfig campaignRunConfig(const CampaignConfig& c, const CampaignRun& run)
{
    RunConfig r;
    r.shape = c.shape;
    r.precision = c.type == CampaignType::F64 ? Precision::F64 : Precision::F32;
    r.gemm = c.type == CampaignType::Tf32 ? GemmVariant::CublasTf32 : GemmVariant::Cublas;
    r.distribution = c.distribution;
    r.seed = run.seed;
    r.backend = c.backend;
    r.device = c.device;
    r.strategy = run.strategy;
    r.memCapBytes = campaignCapBytes(c, run.strategy);
    r.abft = true;
    r.reference = ReferenceMode::Full;  // every cell: an SDC anywhere must be seen
    r.thresholdLambda = c.thresholdLambda;
    r.faults.seed = run.seed;
    if (c.inject && run.afterChecksums) {  // its effect on C, as explicit deltas (operandAfterChecksumFaults)
        r.faults.model = FaultModel::Delta;
        r.faults.target = FaultTarget::Result;
        r.faults.at = operandAfterChecksumFaults(c, run);
        return r;
    }
    if (!c.inject || run.operand)  // operand faults go in through RunHooks::onInputs, not the schedule
        return r;
    r.faults.model = c.model;
    r.faults.bit = run.bit;
    r.faults.target = run.target;
    if (run.target == FaultTarget::Result)
        r.faults.at = run.positions;
    else
        r.faults.count = c.faultsPerRun;  // planFaults picks the block and the cells from the seed
    return r;
}

std::string reproduceCommand(const CampaignConfig& c, const CampaignRun& run)
{
    const RunConfig r = campaignRunConfig(c, run);
    const Shape& s = r.shape;
    std::string cmd = "gigacheck run --shape " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                      std::to_string(s.q) + " --type " + std::string(toString(r.precision));
    if (c.type == CampaignType::Tf32)
        cmd += " --gemm cublas-tf32";
    cmd += " --backend " + std::string(toString(r.backend));
    if (r.device >= 0)
        cmd += " --device " + std::to_string(r.device);
    cmd += " --strategy " + std::string(toString(r.strategy));
    if (r.memCapBytes)
        cmd += " --mem " + std::to_string(r.memCapBytes);
    cmd += " --dist " + std::string(toString(r.distribution)) + " --seed " + std::to_string(r.seed) +
           " --reference full";
    if (!c.inject)
        return cmd;
    if (run.afterChecksums) {
        // Exact: the deltas of the row (A) or column (B) of C that the corrupted element makes.
        cmd += " --fault delta";
        for (const FaultAt& at : r.faults.at) {
            char delta[40];
            std::snprintf(delta, sizeof delta, "%.17g", at.delta.value_or(0.0));
            cmd += " --inject-at " + std::to_string(at.row) + "," + std::to_string(at.col) + ":" + delta;
        }
        return cmd + "  # " + std::string(1, char(run.operand - 'a' + 'A')) + operandPositionsText(run) +
               " corrupted after the checksums, as its effect on C";
    }
    if (run.operand) {
        // gigacheck run has no operand faults: say what the fault was; the campaign replays it.
        cmd += "  # without the fault: this run flipped " + std::string(1, char(run.operand - 'a' + 'A'));
        for (const FaultAt& at : run.positions)  // appended piece by piece: "(" + string&& trips GCC 12's -Wrestrict
            cmd.append("(").append(std::to_string(at.row)).append(",").append(std::to_string(at.col)).append(")");
        cmd += c.model == FaultModel::Delta ? std::string(" by a delta") : " bit " + std::to_string(run.bit);
        return cmd + " before the checksums (gigacheck campaign --seed " + std::to_string(c.seed) + ", run " +
               std::to_string(run.index) + ")";
    }
    cmd += r.faults.model == FaultModel::Delta ? " --fault delta" : " --fault bitflip:" + std::to_string(r.faults.bit);
    if (r.faults.target == FaultTarget::Result) {
        for (const FaultAt& at : r.faults.at)
            cmd += " --inject-at " + std::to_string(at.row) + "," + std::to_string(at.col);
    } else {
        cmd += " --errors " + std::to_string(r.faults.count) + " --target " + std::string(toString(r.faults.target));
    }
    return cmd;
}

}  // namespace gigacheck
