#include "families/blocked_gemm/record/repair_json.hpp"

namespace gigacheck::recordjson {

namespace {

constexpr std::array kRepairOutcomes{RepairOutcome::Confirmed, RepairOutcome::CorrectedByRecompute,
                                     RepairOutcome::Uncorrectable};

Json write(const RepairEvent& e)
{
    Json out = {{"block", {{"i", e.blockI}, {"j", e.blockJ}}},
            {"row_offset", e.rowOffset},
            {"col_offset", e.colOffset},
            {"rows", e.rows},
            {"cols", e.cols},
            {"outcome", toString(e.outcome)},
            {"mismatch_rows", e.mismatchRows},
            {"mismatch_cols", e.mismatchCols},
            {"recomputed_rows", e.recomputedRows},
            {"recomputed_cols", e.recomputedCols},
            {"whole_block", e.wholeBlock},
            {"cells_recomputed", e.cellsRecomputed},
            {"flops", number(e.flops)},
            {"seconds", number(e.seconds)}};
    if (e.operandCopy)  // written only when set: other records stay as they were
        out["operand_copy"] = true;
    return out;
}

RepairEvent read(const Node& n)
{
    RepairEvent e;
    const Node block = n.child("block");
    e.blockI = block.get<int>("i");
    e.blockJ = block.get<int>("j");
    e.rowOffset = n.get<std::int64_t>("row_offset");
    e.colOffset = n.get<std::int64_t>("col_offset");
    e.rows = n.get<std::int64_t>("rows");
    e.cols = n.get<std::int64_t>("cols");
    e.outcome = n.enumeration("outcome", kRepairOutcomes);
    e.mismatchRows = n.list<std::int64_t>("mismatch_rows");
    e.mismatchCols = n.list<std::int64_t>("mismatch_cols");
    e.recomputedRows = n.list<std::int64_t>("recomputed_rows");
    e.recomputedCols = n.list<std::int64_t>("recomputed_cols");
    e.wholeBlock = n.get<bool>("whole_block");
    e.cellsRecomputed = n.get<std::int64_t>("cells_recomputed");
    e.flops = n.get<double>("flops");
    e.seconds = n.get<double>("seconds");
    e.operandCopy = n.getOr<bool>("operand_copy", false);
    return e;
}

}  // namespace

Json writeRepairs(const std::vector<RepairEvent>& repairs)
{
    Json out = Json::array();
    for (const RepairEvent& e : repairs)
        out.push_back(write(e));
    return out;
}

std::vector<RepairEvent> readRepairs(const Node& root)
{
    std::vector<RepairEvent> out;
    if (!root.has("repairs"))
        return out;
    for (const Node& n : root.elements("repairs"))
        out.push_back(read(n));
    return out;
}

}  // namespace gigacheck::recordjson
