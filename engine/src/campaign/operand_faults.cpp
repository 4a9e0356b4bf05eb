// Operand faults of a campaign: corrupted values and, after the checksums, their effect on C.
#include "campaign/operand_faults.hpp"

#include "gigacheck/faults.hpp"

#include <cmath>
#include <map>

namespace gigacheck {

namespace {

// The run's stream of uniforms for operand deltas: two per position, from the run's seed.
double operandDelta(const CampaignRun& run, std::size_t position)
{
    std::uint64_t state = run.seed ^ 0xA5A5A5A5DEADBEEFull;
    const auto uniform = [&state] {
        std::uint64_t x = (state += 0x9E3779B97F4A7C15ull);
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
        return double((x ^ (x >> 31)) >> 11) * 0x1.0p-53;
    };
    double delta = 0;
    for (std::size_t n = 0; n <= position; ++n) {
        const double sign = uniform() < 0.5 ? -1.0 : 1.0;
        delta = sign * (10.0 + 90.0 * uniform());
    }
    return delta;
}

}  // namespace

double corruptedOperandValue(const CampaignConfig& c, const CampaignRun& run, std::size_t position, double before,
                             Precision p)
{
    Injection inj;
    inj.model = c.model;
    inj.bit = run.bit < 0 ? 0 : run.bit;
    // Inputs are O(1) (uniform, normal) or up to 10^3 (wide): a delta of 10-100 stands out of U(-1, 1).
    inj.delta = operandDelta(run, position);
    return p == Precision::F64 ? applyFault(inj, before, p) : double(float(applyFault(inj, float(before), p)));
}

void checkOperandAfterChecksums(const Shape& s, const CampaignRun* run)
{
    if (double(s.m) * double(s.n) + double(s.n) * double(s.q) > kMaxOperandElementsAfterChecksums)
        throw InputError("operand faults after the checksums are offered up to 2^24 operand elements (m n + n q; "
                         "their effect on C is rebuilt from the inputs): " + std::to_string(s.m) + "x" +
                         std::to_string(s.n) + "x" + std::to_string(s.q) + " is larger");
    if (!run)
        return;
    const std::int64_t rows = run->operand == 'a' ? s.m : s.n, cols = run->operand == 'a' ? s.n : s.q;
    for (const FaultAt& at : run->positions)
        if (at.row < 0 || at.col < 0 || at.row >= rows || at.col >= cols)
            throw InputError("campaign run " + std::to_string(run->index) + ": operand position (" +
                             std::to_string(at.row) + ", " + std::to_string(at.col) + ") is outside " +
                             std::string(1, char(run->operand - 'a' + 'A')));
}

std::vector<FaultAt> operandAfterChecksumFaults(const CampaignConfig& c, const CampaignRun& run)
{
    checkOperandAfterChecksums(c.shape, &run);
    const Precision p = c.type == CampaignType::F64 ? Precision::F64 : Precision::F32;
    const Shape& s = c.shape;
    HostMatrix a(p, s.m, s.n), b(p, s.n, s.q);  // the run's intended inputs (runGemm makes the same)
    fillRandom(a, c.distribution, run.seed, 1);
    fillRandom(b, c.distribution, run.seed, 2);
    std::map<std::pair<std::int64_t, std::int64_t>, double> cells;
    for (std::size_t n = 0; n < run.positions.size(); ++n) {
        const FaultAt& at = run.positions[n];
        const HostMatrix& m = run.operand == 'a' ? a : b;
        const double before = m.at(at.row, at.col);
        const double d = corruptedOperandValue(c, run, n, before, p) - before;  // may be inf or NaN
        if (run.operand == 'a')  // A(r, k): row r of C moves by d * B[k, :]
            for (std::int64_t j = 0; j < s.q; ++j)
                cells[{at.row, j}] += d * b.at(at.col, j);
        else  // B(k, c): column c of C moves by A[:, k] * d
            for (std::int64_t i = 0; i < s.m; ++i)
                cells[{i, at.col}] += a.at(i, at.row) * d;
    }
    std::vector<FaultAt> out;
    for (const auto& [cell, delta] : cells)
        out.push_back(FaultAt{cell.first, cell.second, delta, std::nullopt});
    return out;
}

std::string operandPositionsText(const CampaignRun& run)
{
    std::string text;
    // Appended piece by piece: `"(" + std::string&&` trips GCC 12's -Wrestrict (a false positive).
    for (const FaultAt& at : run.positions) {
        text += '(';
        text += std::to_string(at.row);
        text += ',';
        text += std::to_string(at.col);
        text += ')';
    }
    return text;
}

}  // namespace gigacheck
