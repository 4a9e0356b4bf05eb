// The blocked GEMM family in a campaign: each run a runGemm RunRecord, classified from its
// per-block fault report (classifyRun), replayed by `gigacheck run` and the lab's block animation.
#include "gigacheck/blocked_gemm/campaign.hpp"
#include "campaign/family_campaign.hpp"
#include "campaign/campaign_json_fields.hpp"
#include "campaign/campaign_rng.hpp"
#include "campaign/flipped_bits.hpp"
#include "campaign/operand_faults.hpp"

#include "gigacheck/defaults.hpp"
#include "gigacheck/fault_models.hpp"
#include "gigacheck/blocked_gemm/plan.hpp"
#include "gigacheck/blocked_gemm/run.hpp"
#include "gemm/reference.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>

namespace gigacheck {

namespace {


// The run's operand element(s) as injections whose block is (-1, -1, -1) and whose positions are in
// the operand; with `m`, also corrupted in place (before the checksums: RunHooks::onInputs).
void recordOperandFault(CampaignRun& run, const CampaignConfig& c, const HostMatrix& intended, HostMatrix* m)
{
    for (std::size_t n = 0; n < run.positions.size(); ++n) {
        const FaultAt& at = run.positions[n];
        Injection inj;
        inj.block = {-1, -1, -1};
        inj.localRow = inj.globalRow = at.row;
        inj.localCol = inj.globalCol = at.col;
        inj.model = c.model;
        inj.bit = run.bit < 0 ? 0 : run.bit;
        inj.before = intended.at(at.row, at.col);
        inj.after = corruptedOperandValue(c, run, n, inj.before, intended.precision());
        inj.delta = inj.after - inj.before;
        if (m)
            m->set(at.row, at.col, inj.after);
        inj.applied = true;
        run.applied.push_back(inj);
    }
}

// The reference of an operand run is the product of the inputs as they were meant to be.
ReferenceCheck referenceOfIntendedInputs(const RunConfig& rc, const HostMatrix& c)
{
    HostMatrix a(rc.precision, rc.shape.m, rc.shape.n), b(rc.precision, rc.shape.n, rc.shape.q);
    fillRandom(a, rc.distribution, rc.seed, 1);
    fillRandom(b, rc.distribution, rc.seed, 2);
    return checkAgainstReference(a, b, c, ReferenceMode::Full, rc.thresholdLambda, inputFormatOf(rc.gemm));
}

void fillOutcome(CampaignRun& run, RunRecord& record)
{
    // After the checksums the record's own injections (the row / column of C) are the fault.
    if (run.operand && !run.afterChecksums) {
        // ABFT never saw these injections; they count as injected so an alarm is not "false".
        record.faults.injected = int(run.applied.size());
    }
    for (const InjectEvent& e : record.injections)
        if (e.injection.applied)
            run.applied.push_back(e.injection);
    run.status = record.status;
    run.error = record.error;
    run.faults = record.faults;
    run.referencePassed = record.reference.passed;
    run.maxErrorOverTolerance = record.reference.maxRelError;
    run.outcome = classifyRun(record);
}

class BlockedCampaign final : public FamilyCampaign {
public:
    const CampaignFamilyTraits& traits() const override
    {
        using T = CampaignTarget;
        static const CampaignFamilyTraits traits{
            .name = "blocked",
            .helpWords = "blocked GEMM under a memory cap",
            .defaultScheme = "blocked",
            .selectingSchemes = {"blocked"},
            .ownOptions = {"strategy", "mem"},
            .optionOwner = "blocked campaigns (the memory-capped blocked GEMM)",
            .targets = {T::Result, T::Checksum, T::ChecksumRow, T::ChecksumCol, T::A, T::B, T::AAfter, T::BAfter,
                        T::Check, T::Correction, T::Encoding, T::EncodingA, T::EncodingB, T::Any},
            .defaultModel = std::nullopt,
            .defaultTarget = std::nullopt,
            .strategies = true,
            .sixteenBitTypes = true,
            .targetWords =
                "the result C, a checksum row or column (checksum: either at random; checksum-row, checksum-col), the operand A or B before its checksums are taken (a, b; also "
                "a-before, b-before) or after (a-after, b-after), or any of result, checksum, a, b at random; the "
                "checker's own faults: check (a row / column check reports a mismatch over a clean line), "
                "correction (a cell's fault and the write of its correction), encoding (an entry of A's or B's checksum "
                "after the checksum kernel; encoding-a, encoding-b: of that operand)",
            .faultWords = "",
            .extents = true};
        return traits;
    }
    // Another family's scheme (online, offline, tmr) names that family.
    void checkScheme(const std::string& scheme) const override
    {
        const FamilyCampaign* owner = campaignFamilyOfScheme(scheme);
        if (owner && owner != this) {
            const std::string name(owner->traits().name);
            throw InputError("--scheme " + scheme + " belongs to the " + name + " family: use --family " + name +
                             " --scheme " + scheme + " (or --scheme " + scheme + " alone)");
        }
    }
    void validate(const CampaignConfig& c, const DeviceInfo& device) const override
    {
        if (c.scheme == "online" || c.scheme == "offline" || c.scheme == "tmr")
            throw InputError("--scheme " + c.scheme + " belongs to the online family: use --family online --scheme " +
                             c.scheme + " (or --scheme " + c.scheme + " alone)");
        if (c.scheme != "blocked")
            throw InputError("unknown ABFT scheme '" + c.scheme +
                             "': campaigns run only 'blocked' (--family blocked), online, offline or tmr (--family online)");
        if (c.inject && !c.placed.empty())
            checkPlaced(c);
        const Shape& s = c.shape;
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
            const Plan plan = makePlan(s, p, k, cap, true, campaignGemm(c.type));
            const std::int64_t rows = plan.rowsOf(plan.splitM - 1);
            const std::int64_t cols = plan.colsOf(plan.splitQ - 1);
            for (const InjectSpec& at : c.placed)
                if (at.when && *at.when >= plan.splitN)
                    throw InputError("--inject-at " + toString(at) + ": @" + std::to_string(*at.when) + " is past the last k step of " +
                                     std::string(toString(k)) + " (" + std::to_string(plan.splitN) + " step(s): 0-" +
                                     std::to_string(plan.splitN - 1) + ")");
            const bool checksums = c.target == CampaignTarget::Checksum || c.target == CampaignTarget::ChecksumRow ||
                                   c.target == CampaignTarget::ChecksumCol || c.target == CampaignTarget::Any;
            if (c.inject && checksums && c.faultsPerRun > std::min(rows, cols))
                throw InputError(std::to_string(c.faultsPerRun) + " checksum faults per run do not fit: under " +
                                 std::string(toString(k)) + " the smallest block has a checksum row of " +
                                 std::to_string(cols) + " and a checksum column of " + std::to_string(rows) + " cells");
        }
    }

    // --inject-at: cells of C (result, correction; @WHEN a k step) or of A / B, inside the shape; the
    // blocked scheme draws its checksum faults' cells itself.
    static void checkPlaced(const CampaignConfig& c)
    {
        using T = CampaignTarget;
        const T t = c.target;
        if (t != T::Result && t != T::Correction && t != T::A && t != T::B && t != T::AAfter && t != T::BAfter)
            throw InputError("--inject-at " + toString(c.placed.front()) + ": the blocked family places cells of C (c:R,C, "
                             "@K a k step), of A or B (a:R,C, b:R,C; --target a-after / b-after: after the checksums); "
                             "its checksum faults are drawn (--target " + std::string(toString(t)) + " without --inject-at)");
        const bool onA = t == T::A || t == T::AAfter, onB = t == T::B || t == T::BAfter;
        const std::int64_t rows = onB ? c.shape.n : c.shape.m, cols = onA ? c.shape.n : c.shape.q;
        for (const InjectSpec& at : c.placed) {
            if (!at.hasCell())
                throw InputError("--inject-at " + toString(at) + ": the blocked family places cells (R,C), not quadrants");
            if ((onA || onB) && at.when)
                throw InputError("--inject-at " + toString(at) + ": an operand fault of the blocked family has no step "
                                 "(before its checksums, or with --target a-after / b-after after them)");
            if (at.row >= rows || at.col >= cols)
                throw InputError("--inject-at " + toString(at) + " is outside " + (onA ? "A" : onB ? "B" : "C") + " (" +
                                 std::to_string(rows) + " x " + std::to_string(cols) + ")");
        }
    }

    void plan(const CampaignConfig& c, CampaignRun& run, CampaignRng& rng) const override
    {
        if (!c.inject)
            return;
        switch (c.target) {
        case CampaignTarget::Checksum: run.target = rng.below(2) ? FaultTarget::ChecksumCol : FaultTarget::ChecksumRow; break;
        case CampaignTarget::ChecksumRow: run.target = FaultTarget::ChecksumRow; break;
        case CampaignTarget::ChecksumCol: run.target = FaultTarget::ChecksumCol; break;
        case CampaignTarget::A: run.operand = 'a'; break;
        case CampaignTarget::B: run.operand = 'b'; break;
        case CampaignTarget::AAfter: run.operand = 'a'; run.afterChecksums = true; break;
        case CampaignTarget::BAfter: run.operand = 'b'; run.afterChecksums = true; break;
        case CampaignTarget::Check: run.target = FaultTarget::Check; break;
        case CampaignTarget::Correction: run.target = FaultTarget::Correction; break;
        case CampaignTarget::Encoding: run.target = rng.below(2) ? FaultTarget::EncodingB : FaultTarget::EncodingA; break;
        case CampaignTarget::EncodingA: run.target = FaultTarget::EncodingA; break;
        case CampaignTarget::EncodingB: run.target = FaultTarget::EncodingB; break;
        case CampaignTarget::Any: {
            const std::int64_t pick = rng.below(5);
            run.target = pick == 1 ? FaultTarget::ChecksumRow : pick == 2 ? FaultTarget::ChecksumCol : FaultTarget::Result;
            run.operand = pick == 3 ? 'a' : pick == 4 ? 'b' : 0;
            break;
        }
        default: run.target = FaultTarget::Result; break;  // validate admits result only beside these
        }
        drawFlippedBits(c, rng, run);
        if (run.target == FaultTarget::Result || run.target == FaultTarget::Correction) {
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
        if (!c.placed.empty())  // drawn first all the same: a run's bits are those of the drawn campaign
            for (std::size_t f = 0; f < c.placed.size(); ++f)
                run.positions[f] = placedCell(c, f);
    }

    bool run(const CampaignConfig& config, CampaignRun& run, Backend& backend,
             const std::atomic<bool>* cancel) const override
    {
        RunHooks runHooks;
        runHooks.backend = &backend;
        runHooks.cancel = cancel;
        HostMatrix c;
        if (run.operand && run.afterChecksums) {
            // The intended inputs stay as they are; the schedule injects the fault's effect on C.
            runHooks.onInputs = [&](HostMatrix& a, HostMatrix& b) {
                recordOperandFault(run, config, run.operand == 'a' ? a : b, nullptr);
            };
        } else if (run.operand) {
            runHooks.onInputs = [&](HostMatrix& a, HostMatrix& b) {
                HostMatrix& m = run.operand == 'a' ? a : b;
                HostMatrix intended(m.precision(), m.rows(), m.cols());
                std::memcpy(intended.data(), m.data(), m.bytes());
                recordOperandFault(run, config, intended, &m);
            };
            runHooks.resultOut = &c;
        }
        const RunConfig runConfig = campaignRunConfig(config, run);
        RunRecord record = runGemm(runConfig, runHooks);
        if (record.status == "cancelled")
            return false;
        if (run.operand && !run.afterChecksums && record.status == "ok")
            record.reference = referenceOfIntendedInputs(runConfig, c);
        fillOutcome(run, record);
        return true;
    }

    std::string reproduce(const CampaignConfig& c, const CampaignRun& run) const override
    {
        const RunConfig r = campaignRunConfig(c, run);
        const Shape& s = r.shape;
        std::string cmd = "gigacheck run --shape " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                          std::to_string(s.q) + " --type " + std::string(toString(r.precision));
        if (c.type != CampaignType::F32 && c.type != CampaignType::F64)
            cmd += " --gemm " + std::string(toString(r.gemm));
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
        if (r.faults.model == FaultModel::BitFlip && r.faults.bit2 >= 0)
            cmd += "+" + std::to_string(r.faults.bit2);
        if (r.faults.extent != FaultExtent::Cell)
            cmd += " --extent " + faultExtentText(r.faults.extent, r.faults.extentLength);
        if (r.faults.target == FaultTarget::Result || r.faults.target == FaultTarget::Correction) {
            if (r.faults.target == FaultTarget::Correction)
                cmd += " --target correction";
            for (const FaultAt& at : r.faults.at) {
                cmd += " --inject-at " + std::to_string(at.row) + "," + std::to_string(at.col);
                if (at.delta) {  // a delta of --inject-at R,C:DELTA, exactly
                    char delta[40];
                    std::snprintf(delta, sizeof delta, "%.17g", *at.delta);
                    cmd.append(":").append(delta);
                }
                if (at.step)
                    cmd += "@" + std::to_string(*at.step);
            }
        } else {
            cmd += " --errors " + std::to_string(r.faults.count) + " --target " + std::string(toString(r.faults.target));
        }
        return cmd;
    }

    std::string settingsText(const CampaignConfig& c) const override
    {
        std::string strategies;
        for (StrategyKind k : c.strategies)
            strategies.append(strategies.empty() ? "" : ",").append(toString(k));
        const bool none = std::find(c.strategies.begin(), c.strategies.end(), StrategyKind::None) != c.strategies.end();
        return ", strategy " + strategies + ", cap " +
               (c.memCapBytes ? formatBytes(double(c.memCapBytes))
                              : formatBytes(double(campaignCapBytes(c, StrategyKind::S1))) + " (a quarter of A + B + C" +
                                    (none ? "; none: the device's memory)" : ")"));
    }
    // Its runs name the target as the fault report does (an operand fault: its cells of C are
    // "result", the operand and when in operand / afterChecksums), not by a family name.
    void readRun(const nlohmann::json& j, CampaignRun& run, const std::string& at) const override
    {
        const std::string target = campaignjson::field<std::string>(j, "target", at);
        const bool operand = target == "a" || target == "b" || target == "a-after" || target == "b-after";
        run.familyTarget.clear();
        run.target = target == "none" || operand ? FaultTarget::Result : faultTargetFromString(target);
        run.operand = operand ? target[0] : 0;
        run.afterChecksums = target == "a-after" || target == "b-after";
    }
    std::string promise(const CampaignConfig& c) const override
    {
        std::string out;
        const CampaignTarget t = c.target;
        if (t == CampaignTarget::Result || t == CampaignTarget::Any)
            out += "ABFT promise (result): one corrupted cell per block product is located by its row and column "
                   "checksums and corrected; flips below the round-off threshold are masked by definition.\n";
        if (t == CampaignTarget::Checksum || t == CampaignTarget::ChecksumRow || t == CampaignTarget::ChecksumCol ||
            t == CampaignTarget::Any)
            out += "ABFT promise (checksums): a corrupted checksum leaves C untouched, so it can at worst cost a "
                   "recomputation of the checksums or a false give-up (DUE), never a wrong C.\n";
        if (t == CampaignTarget::A || t == CampaignTarget::B || t == CampaignTarget::Any)
            out += "End-to-end promise (operands, before the checksums): detected -- C = A'B is self-consistent, so no "
                   "check of C sees it, but every copy of an A / B block is compared with the checksums taken where the "
                   "operand entered the program: the element is restored from them and the C blocks it fed are "
                   "recomputed (corrected by recompute); several elements off one row and one column of a block: DUE. "
                   "Both backends compare the copies; data already wrong when it entered the program cannot be "
                   "seen.\n";
        if (t == CampaignTarget::AAfter || t == CampaignTarget::BAfter)
            out += "ABFT promise (operands, after the checksums): detected -- a corrupted A(r, k) makes a whole row r "
                   "of C wrong (B(k, c): a whole column c), which the checksums taken before see; not correctable "
                   "cell by cell, but as a collinear row / column from the other checksum, or by recomputing the "
                   "lines from A and B in the repair pass; never silent unless the change is below round-off.\n";
        if (c.extent != FaultExtent::Cell && (t == CampaignTarget::Result || t == CampaignTarget::Any ||
                                              t == CampaignTarget::Correction))
            out += "ABFT promise (" + faultExtentText(c.extent, c.extentLength) + " per fault): a row or column "
                   "segment is collinear and corrected from the other axis's checksums; a tile (several rows and "
                   "columns) is beyond the checksums' correction: the block is recomputed by the repair pass "
                   "(corrected by recompute), never silent.\n";
        if (c.twoBits)
            out += "ABFT promise (two bits of one word): one corrupted cell as for one bit -- corrected, or masked "
                   "below the round-off threshold.\n";
        if (t == CampaignTarget::Check)
            out += "Promise (a lying check): a row / column check that reports a mismatch over a clean line moves "
                   "no cell by more than round-off -- at worst its line is recomputed by the repair pass; never a "
                   "wrong C.\n";
        if (t == CampaignTarget::Correction)
            out += "Promise (a hit correction write): the repair pass recomputes every corrected cell from A and B, "
                   "so a wrong value written by a correction never stays in C (corrected by recompute).\n";
        if (t == CampaignTarget::Encoding || t == CampaignTarget::EncodingA || t == CampaignTarget::EncodingB)
            out += "Promise (a hit checksum kernel): a wrong entry of c_A / r_B makes C's checksum row / column "
                   "wrong, never C: the checksums are rebuilt (corrected) or the block re-checked; never a wrong C.\n";
        return out;
    }
    std::string_view variesTitle() const override { return "strategy"; }
    std::string variesText(const CampaignConfig&, const CampaignRun& run) const override
    {
        return std::string(toString(run.strategy));
    }
    bool replaysInLab() const override { return true; }  // campaignRunConfig: the animation's RunConfig
};

}  // namespace

RunConfig campaignRunConfig(const CampaignConfig& c, const CampaignRun& run)
{
    RunConfig r;
    r.shape = c.shape;
    r.precision = c.type == CampaignType::F64 ? Precision::F64 : Precision::F32;
    r.gemm = campaignGemm(c.type);
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
    r.faults.bit2 = run.bit2;
    r.faults.target = run.target;
    r.faults.extent = c.extent;
    r.faults.extentLength = c.extentLength;
    if (run.target == FaultTarget::Result || run.target == FaultTarget::Correction) {
        r.faults.at = run.positions;
        for (std::size_t f = 0; f < c.placed.size() && f < r.faults.at.size(); ++f)
            r.faults.at[f] = placedCell(c, f);  // with its :DELTA and @WHEN (a read file keeps cells only)
    }
    else
        r.faults.count = c.faultsPerRun;  // planFaults picks the block and the cells from the seed
    return r;
}

const FamilyCampaign& blockedCampaign()
{
    static const BlockedCampaign family;
    return family;
}

}  // namespace gigacheck
