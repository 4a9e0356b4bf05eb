// Range and consistency checks of a loaded run record (record_validate.hpp).
#include "families/blocked_gemm/record/record_validate.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace gigacheck::recordcheck {

namespace {

int highestBit(Precision p) { return int(elementSize(p) * 8) - 1; }

void validateConfig(const RunConfig& c)
{
    validateShape(c.shape, "blocked_gemm.config.shape");
    inRange(c.device, -1, 1023, "blocked_gemm.config.device");
    inRange(c.tile, 1, 1024, "blocked_gemm.config.tile");
    thresholdLambda(c.thresholdLambda, "blocked_gemm.config.threshold_lambda");
    const FaultSpec& f = c.faults;
    inRange(f.count, 0, kMaxRandomFaults, "blocked_gemm.config.faults.count");
    inRange(f.bit, -1, highestBit(c.precision), "blocked_gemm.config.faults.bit");
    if (f.at.size() > kMaxExplicitFaults)
        refuse("blocked_gemm.config.faults.at", "lists " + std::to_string(f.at.size()) + " faults, more than " +
                                       std::to_string(kMaxExplicitFaults));
    // Requested positions, not events: one outside C is possible in the lab's kept configuration
    // (the shape changed since), which the faults panel drops. Only their range is bounded here.
    for (std::size_t i = 0; i < f.at.size(); ++i) {
        const std::string field = "blocked_gemm.config.faults." + at("at", i);
        inRange(f.at[i].row, 0, kMaxExtent - 1, field + ".row");
        inRange(f.at[i].col, 0, kMaxExtent - 1, field + ".col");
        if (f.at[i].step)
            inRange(*f.at[i].step, 0, kMaxExtent - 1, field + ".step");
    }
}

// Splits and block extents as makePlan writes them: blocks of `block` elements, the last one
// taking the remainder, none empty, so splits == ceil(total / block).
void validateCut(std::int64_t total, int splits, std::int64_t block, const char* splitName, const char* blockName)
{
    inRange(splits, 1, total, std::string("blocked_gemm.plan.") + splitName);
    inRange(block, 1, total, std::string("blocked_gemm.plan.") + blockName);
    if ((total + block - 1) / block != splits)
        refuse(std::string("blocked_gemm.plan.") + splitName, "is " + std::to_string(splits) + " but " + std::to_string(total) +
                                                     " cut into blocks of " + std::to_string(block) + " makes " +
                                                     std::to_string((total + block - 1) / block));
}

// Unequal blocks (the planner's tapered ends): one start per block, the first at 0, ascending,
// inside the matrix, no block empty or above the largest extent.
void validateStarts(const std::vector<std::int64_t>& starts, std::int64_t total, int splits, std::int64_t block,
                    const char* startsName)
{
    const std::string field = std::string("blocked_gemm.plan.") + startsName;
    inRange(splits, 1, total, field + " (its split)");
    inRange(block, 1, total, field + " (its block extent)");
    if (starts.size() != std::size_t(splits))
        refuse(field, "has " + std::to_string(starts.size()) + " entries for " + std::to_string(splits) + " blocks");
    if (starts.front() != 0)
        refuse(field, "does not start at 0");
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const std::int64_t end = i + 1 < starts.size() ? starts[i + 1] : total;
        if (end <= starts[i] || end - starts[i] > block)
            refuse(field + "[" + std::to_string(i) + "]", "makes a block of " + std::to_string(end - starts[i]) +
                                                              " (each must be 1 to " + std::to_string(block) + ")");
    }
}

bool hasPlan(const Plan& p) { return !(p.shape == Shape{}); }

void validatePlan(const Plan& p, const RunConfig& c)
{
    validateShape(p.shape, "blocked_gemm.plan.shape");
    if (!(p.shape == c.shape))
        refuse("blocked_gemm.plan.shape", "differs from blocked_gemm.config.shape");
    if (p.rowStarts.empty())
        validateCut(p.shape.m, p.splitM, p.blockM, "split_m", "block_m");
    else
        validateStarts(p.rowStarts, p.shape.m, p.splitM, p.blockM, "row_starts");
    validateCut(p.shape.n, p.splitN, p.blockN, "split_n", "block_n");
    if (p.colStarts.empty())
        validateCut(p.shape.q, p.splitQ, p.blockQ, "split_q", "block_q");
    else
        validateStarts(p.colStarts, p.shape.q, p.splitQ, p.blockQ, "col_starts");
    // More products than a run schedules (buildSchedule refuses them): no run wrote this plan.
    // productCount stops at INT64_MAX rather than wrapping (splits up to 2^31 - 1 each).
    if (p.productCount() > kMaxProducts)
        refuse("blocked_gemm.plan.split_m", "times split_n times split_q makes " +
                                                (p.productCount() == std::numeric_limits<std::int64_t>::max()
                                                     ? std::string("more than 2^63")
                                                     : std::to_string(p.productCount())) +
                                                " block products, more than a run schedules (" +
                                                std::to_string(kMaxProducts) + ")");
    if (p.buffers.size() > kMaxBuffers)
        refuse("blocked_gemm.plan.buffers", "lists " + std::to_string(p.buffers.size()) + " buffers, more than " +
                                   std::to_string(kMaxBuffers));
    for (std::size_t i = 0; i < p.buffers.size(); ++i) {
        const BufferSpec& b = p.buffers[i];
        const std::string field = "blocked_gemm.plan." + at("buffers", i);
        inRange(b.rows, 0, kMaxExtent + 1, field + ".rows");
        inRange(b.cols, 0, kMaxExtent + 1, field + ".cols");
        inRange(b.ld, b.cols, kMaxExtent + 64, field + ".ld");
    }
}

void validateBlock(const BlockIndex& b, const Plan& p, const std::string& field)
{
    inRange(b.i, 0, p.splitM - 1, field + ".i");
    inRange(b.j, 0, p.splitQ - 1, field + ".j");
    inRange(b.k, 0, p.splitN - 1, field + ".k");
}

void validateSpans(const std::vector<Span>& spans, const std::string& name, const RunRecord& r)
{
    for (std::size_t s = 0; s < spans.size(); ++s) {
        const Span& span = spans[s];
        const std::string field = at(name, s);
        inRange(span.opId, 0, kMaxExtent, field + ".op_id");
        inRange(span.stream, 0, kMaxStreams - 1, field + ".stream");
        validateBlock(span.block, r.plan, field + ".block");
        finite(span.start, field + ".start");
        finite(span.end, field + ".end");
        if (span.end < span.start)
            refuse(field + ".end", "is before its start");
        finite(span.bytes, field + ".bytes");
        finite(span.flops, field + ".flops");
    }
}

void validateInjections(const RunRecord& r)
{
    const Plan& p = r.plan;
    for (std::size_t e = 0; e < r.injections.size(); ++e) {
        const InjectEvent& event = r.injections[e];
        const Injection& inj = event.injection;
        const std::string field = "events." + at("injections", e) + ".injection";
        inRange(event.opId, 0, kMaxExtent, "events." + at("injections", e) + ".op_id");
        finite(event.time, "events." + at("injections", e) + ".time");
        validateBlock(inj.block, p, field + ".block");
        // Local indices may name the checksum row / column, one past the block.
        // An encoding fault names entry k of c_A / r_B: an index into the block's depth.
        const bool encoding = inj.target == FaultTarget::EncodingA || inj.target == FaultTarget::EncodingB;
        inRange(inj.localRow, 0, encoding ? p.depthOf(inj.block.k) - 1 : p.rowsOf(inj.block.i), field + ".local_row");
        inRange(inj.localCol, 0, p.colsOf(inj.block.j), field + ".local_col");
        inRange(inj.globalRow, -1, p.shape.m - 1, field + ".global_row");
        inRange(inj.globalCol, -1, p.shape.q - 1, field + ".global_col");
        inRange(inj.bit, 0, 63, field + ".bit");
        inRange(inj.bit2, -1, 63, field + ".bit2");
    }
}

void validateVerifications(const RunRecord& r)
{
    const Plan& p = r.plan;
    for (std::size_t e = 0; e < r.verifications.size(); ++e) {
        const VerifyEvent& v = r.verifications[e];
        const std::string field = "events." + at("verifications", e);
        inRange(v.opId, 0, kMaxExtent, field + ".op_id");
        finite(v.time, field + ".time");
        validateBlock(v.block, p, field + ".block");
        inRange(v.rowOffset, 0, p.shape.m - 1, field + ".row_offset");
        inRange(v.colOffset, 0, p.shape.q - 1, field + ".col_offset");
        inRange(v.rows, 1, p.shape.m - v.rowOffset, field + ".rows");
        inRange(v.cols, 1, p.shape.q - v.colOffset, field + ".cols");
        // Augmented indices: rows / cols name the checksum row / column.
        const VerifyResult& res = v.result;
        const auto indices = [&](const std::vector<std::int64_t>& list, std::int64_t last, const char* name) {
            if (list.size() > std::size_t(last) + 1)
                refuse(field + ".result." + name, "lists more entries than the block has");
            for (std::size_t i = 0; i < list.size(); ++i)
                inRange(list[i], 0, last, field + ".result." + at(name, i));
        };
        indices(res.mismatchRows, v.rows, "mismatch_rows");
        indices(res.mismatchCols, v.cols, "mismatch_cols");
        if (res.rowResidual.size() > std::size_t(v.rows) + 1)
            refuse(field + ".result.row_residual", "lists more entries than the block has rows");
        if (res.colResidual.size() > std::size_t(v.cols) + 1)
            refuse(field + ".result.col_residual", "lists more entries than the block has columns");
        if (res.corrections.size() > std::size_t(v.rows + 1) * std::size_t(v.cols + 1))
            refuse(field + ".result.corrections", "lists more entries than the block has cells");
        for (std::size_t c = 0; c < res.corrections.size(); ++c) {
            inRange(res.corrections[c].row, 0, v.rows, field + ".result." + at("corrections", c) + ".row");
            inRange(res.corrections[c].col, 0, v.cols, field + ".result." + at("corrections", c) + ".col");
        }
    }
}

}  // namespace

void validate(const RunRecord& r)
{
    validateConfig(r.config);
    if (!hasPlan(r.plan)) {
        if (!r.spans.empty() || !r.injections.empty() || !r.verifications.empty())
            refuse("blocked_gemm.plan.shape", "is 0 x 0 x 0 but the record has spans or events");
        return;
    }
    validatePlan(r.plan, r.config);
    validateSpans(r.spans, "spans", r);
    validateSpans(r.predictedSpans, "prediction.spans", r);
    finite(r.predictedSeconds, "prediction.total_seconds");
    validateInjections(r);
    validateVerifications(r);
}

}  // namespace gigacheck::recordcheck
