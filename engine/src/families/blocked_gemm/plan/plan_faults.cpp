// Expands a FaultSpec into concrete injections for a plan (the Gigacheck report's section 4.3, extended).
#include "gigacheck/blocked_gemm/plan_faults.hpp"
#include "gigacheck/fault_grammar.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <string>
#include <tuple>
#include <utility>

namespace gigacheck {

std::vector<std::size_t> FaultPlan::forBlock(const BlockIndex& b) const
{
    std::vector<std::size_t> out;
    for (std::size_t n = 0; n < injections.size(); ++n)
        if (injections[n].block == b)
            out.push_back(n);
    return out;
}

namespace {

// Reproducible on every machine (std distributions are implementation-defined): splitmix64.
class FaultRng {
public:
    explicit FaultRng(std::uint64_t seed) : state_(seed ^ 0x6A09E667F3BCC908ull) {}
    std::uint64_t next()
    {
        std::uint64_t x = (state_ += 0x9E3779B97F4A7C15ull);
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
        return x ^ (x >> 31);
    }
    std::int64_t below(std::int64_t n) { return n <= 1 ? 0 : std::int64_t(next() % std::uint64_t(n)); }
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }
    // k distinct values of [0, n), in random order: rejection for sparse picks (n may be a whole
    // block's cell count), a partial Fisher-Yates shuffle otherwise.
    std::vector<std::int64_t> distinct(std::int64_t k, std::int64_t n)
    {
        std::vector<std::int64_t> picked;
        if (n > 4 * k + 1024) {
            std::set<std::int64_t> seen;
            while (std::int64_t(picked.size()) < k) {
                const std::int64_t v = below(n);
                if (seen.insert(v).second)
                    picked.push_back(v);
            }
            return picked;
        }
        picked.resize(std::size_t(n));
        std::iota(picked.begin(), picked.end(), std::int64_t(0));
        for (std::int64_t i = 0; i < k; ++i)
            std::swap(picked[std::size_t(i)], picked[std::size_t(i + below(n - i))]);
        picked.resize(std::size_t(k));
        return picked;
    }

private:
    std::uint64_t state_;
};

// Block extents and offsets as the plan gives them (equal blocks, or the planner's tapered ends).
struct Blocking {
    const Plan& plan;
    std::int64_t rows(int i) const { return plan.rowsOf(i); }
    std::int64_t cols(int j) const { return plan.colsOf(j); }
};

std::string blockName(const BlockIndex& b)
{
    return "block (" + std::to_string(b.i) + ", " + std::to_string(b.j) + ")";
}

void checkPlan(const Plan& plan)
{
    const Shape& s = plan.shape;
    if (s.m <= 0 || s.n <= 0 || s.q <= 0)
        throw InputError("cannot plan faults for an empty product (" + std::to_string(s.m) + " x " +
                         std::to_string(s.n) + " x " + std::to_string(s.q) + ")");
    if (plan.splitM < 1 || plan.splitN < 1 || plan.splitQ < 1 || plan.blockM < 1 || plan.blockQ < 1 ||
        plan.rowOffset(plan.splitM - 1) + plan.rowsOf(plan.splitM - 1) < s.m ||
        plan.colOffset(plan.splitQ - 1) + plan.colsOf(plan.splitQ - 1) < s.q)
        throw InputError("cannot plan faults: the plan's blocking does not cover C");
}

int resolveBit(const FaultSpec& spec, Precision p)
{
    return spec.model == FaultModel::BitFlip ? resolvedBit(spec.bit, p) : 0;  // the grammar's bit rule
}

double randomDelta(FaultRng& rng, double typicalMagnitude)
{
    const double scale = (std::isfinite(typicalMagnitude) && typicalMagnitude > 0) ? typicalMagnitude : 1.0;
    const double sign = rng.uniform() < 0.5 ? -1.0 : 1.0;
    return sign * (10.0 + 90.0 * rng.uniform()) * scale;
}

// Local (row, col) cells of the count random faults in one block product of rows x cols.
std::vector<std::pair<std::int64_t, std::int64_t>> randomCells(const FaultSpec& spec, FaultRng& rng,
                                                               std::int64_t rows, std::int64_t cols,
                                                               const BlockIndex& b)
{
    const std::int64_t count = spec.count;
    const auto tooMany = [&](const std::string& where, std::int64_t room) {
        throw InputError(std::to_string(count) + " faults " + where + " do not fit: " + blockName(b) +
                         " has room for " + std::to_string(room));
    };
    std::vector<std::pair<std::int64_t, std::int64_t>> cells;
    switch (spec.target) {
    case FaultTarget::ChecksumRow:
        if (count > cols)
            tooMany("in the checksum row", cols);
        for (std::int64_t c : rng.distinct(count, cols))
            cells.emplace_back(rows, c);
        return cells;
    case FaultTarget::ChecksumCol:
        if (count > rows)
            tooMany("in the checksum column", rows);
        for (std::int64_t r : rng.distinct(count, rows))
            cells.emplace_back(r, cols);
        return cells;
    case FaultTarget::Result:
    default:  // the checker's own faults are placed as result cells (gigacheck/fault_models.hpp)
        break;
    }
    switch (spec.collinear) {
    case Collinearity::Row: {
        if (count > cols)
            tooMany("in one row", cols);
        const std::int64_t r = rng.below(rows);
        for (std::int64_t c : rng.distinct(count, cols))
            cells.emplace_back(r, c);
        return cells;
    }
    case Collinearity::Col: {
        if (count > rows)
            tooMany("in one column", rows);
        const std::int64_t c = rng.below(cols);
        for (std::int64_t r : rng.distinct(count, rows))
            cells.emplace_back(r, c);
        return cells;
    }
    case Collinearity::Scattered:
        break;
    }
    if (count <= std::min(rows, cols)) {
        // Distinct rows and distinct columns: no two faults share a line.
        const auto rs = rng.distinct(count, rows), cs = rng.distinct(count, cols);
        for (std::int64_t n = 0; n < count; ++n)
            cells.emplace_back(rs[std::size_t(n)], cs[std::size_t(n)]);
        return cells;
    }
    if (count > rows * cols)
        tooMany("in distinct cells", rows * cols);
    // More faults than lines: distinct cells, some necessarily sharing a row or column.
    for (std::int64_t flat : rng.distinct(count, rows * cols))
        cells.emplace_back(flat / cols, flat % cols);
    return cells;
}

}  // namespace

FaultPlan planFaults(const FaultSpec& spec, const Plan& plan, double typicalMagnitude)
{
    FaultPlan out;
    if (spec.count < 0)
        throw InputError("fault count must not be negative (got " + std::to_string(spec.count) + ")");
    if (!spec.any())
        return out;
    checkPlan(plan);
    const int bit = resolveBit(spec, plan.precision);
    const Blocking blocking{plan};
    FaultRng rng(spec.seed);
    const int lastStep = plan.splitN - 1;

    const auto makeInjection = [&](const BlockIndex& b, std::int64_t localRow, std::int64_t localCol,
                                   FaultTarget target) {
        Injection inj;
        inj.block = b;
        inj.localRow = localRow;
        inj.localCol = localCol;
        inj.target = target;
        const bool checksumRow = localRow == blocking.rows(b.i);
        const bool checksumCol = localCol == blocking.cols(b.j);
        inj.globalRow = checksumRow ? -1 : plan.rowOffset(b.i) + localRow;
        inj.globalCol = checksumCol ? -1 : plan.colOffset(b.j) + localCol;
        inj.model = spec.model;
        inj.bit = bit;
        inj.delta = spec.model == FaultModel::Delta ? randomDelta(rng, typicalMagnitude) : 0.0;
        return inj;
    };

    // Random faults, count per chosen block product.
    if (spec.count > 0) {
        std::vector<BlockIndex> products;
        if (spec.scope == FaultScope::OneProduct) {
            // The last k step, so the corruption is what the block's final verification sees.
            const std::int64_t flat = rng.below(std::int64_t(plan.splitM) * plan.splitQ);
            products.push_back({int(flat / plan.splitQ), int(flat % plan.splitQ), lastStep});
        } else {
            for (int i = 0; i < plan.splitM; ++i)
                for (int j = 0; j < plan.splitQ; ++j)
                    for (int k = 0; k < plan.splitN; ++k)
                        products.push_back({i, j, k});
        }
        for (const BlockIndex& b : products)
            for (const auto& [r, c] : randomCells(spec, rng, blocking.rows(b.i), blocking.cols(b.j), b))
                out.injections.push_back(makeInjection(b, r, c, spec.target));
    }

    // Explicit positions in global C coordinates.
    for (const FaultAt& at : spec.at) {
        if (at.row < 0 || at.row >= plan.shape.m || at.col < 0 || at.col >= plan.shape.q)
            throw InputError("fault at (" + std::to_string(at.row) + ", " + std::to_string(at.col) +
                             ") is outside C (" + std::to_string(plan.shape.m) + " x " +
                             std::to_string(plan.shape.q) + "; rows and columns count from 0)");
        const int step = at.step.value_or(lastStep);
        if (step < 0 || step > lastStep)
            throw InputError("fault at (" + std::to_string(at.row) + ", " + std::to_string(at.col) + "): step " +
                             std::to_string(step) + " does not exist (the plan has " +
                             std::to_string(plan.splitN) + " k step" + (plan.splitN == 1 ? "" : "s") + ")");
        const BlockIndex b{plan.rowBlockOf(at.row), plan.colBlockOf(at.col), step};
        Injection inj = makeInjection(b, at.row - plan.rowOffset(b.i), at.col - plan.colOffset(b.j), FaultTarget::Result);
        if (at.delta) {  // an explicit delta makes it a delta fault whatever the spec's model
            inj.model = FaultModel::Delta;
            inj.delta = *at.delta;
        }
        out.injections.push_back(inj);
    }

    std::stable_sort(out.injections.begin(), out.injections.end(), [](const Injection& x, const Injection& y) {
        return std::tie(x.block.i, x.block.j, x.block.k) < std::tie(y.block.i, y.block.j, y.block.k);
    });
    return out;
}

}  // namespace gigacheck
