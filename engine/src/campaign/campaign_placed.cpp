// campaign --inject-at: the places every run of a campaign strikes, in the grammar of every verb
// (gigacheck/fault_grammar.hpp), turned into the campaign's target and fault count.
#include "gigacheck/campaign.hpp"

#include <algorithm>

namespace gigacheck {

namespace {

// The campaign target a place names: a cell of C is a result fault, an operand's cell one before
// its checksums (online: after step WHEN), a quadrant Strassen's quadrant of C.
CampaignTarget targetOf(const InjectSpec& s)
{
    switch (s.target) {
    case InjectTarget::C: return s.quadrant ? CampaignTarget::CQuadrant : CampaignTarget::Result;
    case InjectTarget::A: return s.when && !s.quadrant ? CampaignTarget::AAfter : CampaignTarget::A;
    case InjectTarget::B: return s.when && !s.quadrant ? CampaignTarget::BAfter : CampaignTarget::B;
    case InjectTarget::ChecksumRow: return CampaignTarget::ChecksumRow;
    case InjectTarget::ChecksumCol: return CampaignTarget::ChecksumCol;
    case InjectTarget::Product: return CampaignTarget::Product;
    }
    return CampaignTarget::Result;
}

// --target given beside places: the same target, or one that says more about the same cells (a
// cell of C whose correction is hit; an operand's cell after its checksums).
bool agrees(CampaignTarget given, CampaignTarget placed)
{
    if (given == placed)
        return true;
    return (placed == CampaignTarget::Result && given == CampaignTarget::Correction) ||
           (placed == CampaignTarget::A && given == CampaignTarget::AAfter) ||
           (placed == CampaignTarget::B && given == CampaignTarget::BAfter);
}

}  // namespace

void placeCampaignFaults(CampaignConfig& c, const std::vector<std::string>& texts, bool targetGiven)
{
    c.placed.clear();
    if (texts.empty())
        return;
    std::optional<CampaignTarget> target;
    for (const std::string& text : texts) {
        const InjectSpec spec = parseInjectSpec(text);
        const CampaignTarget t = targetOf(spec);
        if (target && *target != t)
            throw InputError("--inject-at " + text + " names " + std::string(toString(t)) + ", another --inject-at " +
                             std::string(toString(*target)) + ": a campaign's places share one target");
        target = t;
        // One cell placed twice would be two faults on one value (its deltas summed, its bit flipped
        // back): say so rather than strike it twice. A quadrant twice is two cells drawn in it.
        const auto same = std::find_if(c.placed.begin(), c.placed.end(), [&spec](const InjectSpec& p) {
            return spec.hasCell() && p.row == spec.row && p.col == spec.col && p.when == spec.when;
        });
        if (same != c.placed.end())
            throw InputError("--inject-at " + text + " places the cell of --inject-at " + toString(*same) +
                             " again: give each cell once (--fault bitflip:B+B2 flips two bits of one value)");
        c.placed.push_back(spec);
    }
    if (targetGiven && !agrees(c.target, *target))
        throw InputError("--inject-at " + texts.front() + " names the target " + std::string(toString(*target)) +
                         " and --target " + std::string(toString(c.target)) + " another: drop --target or make them agree");
    if (!targetGiven || c.target == *target)
        c.target = *target;
    c.faultsPerRun = int(c.placed.size());
}

FaultAt placedCell(const CampaignConfig& c, std::size_t f)
{
    const InjectSpec& s = c.placed.at(f);
    return FaultAt{s.row, s.col, s.delta, s.when};
}

}  // namespace gigacheck
