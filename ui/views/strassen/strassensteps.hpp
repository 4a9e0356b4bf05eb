// The Strassen view's stepper as plain data (no widgets, tested in tests/ui/tst_strassenview.cpp):
// the steps of one recipe level with the blocks each step reads, overwrites in place and
// accumulates into (with the sign), named as in the seed (A0..A3; zoomed, A00..A33 = block j of
// Ai), the seed's formula and the step in plain words; and which ops of a real run's schedule
// belong to which step (the step's measured time, the leaf product a product fault lands in).
#pragma once

#include <gigacheck/events.hpp>
#include <gigacheck/strassen.hpp>

#include <QString>

#include <optional>
#include <vector>

namespace gigacheck::ui::strassenlab {

enum class MatrixId { A, B, C };

// One sub-block of A, B or C in a grid × grid picture (grid 2: the quarters; grid 4: the level-2
// sub-blocks).
struct BlockCell {
    MatrixId operand = MatrixId::A;
    int row = 0, col = 0;
    bool operator==(const BlockCell&) const = default;
};
struct SignedCell {
    BlockCell cell;
    int sign = +1;
    bool operator==(const SignedCell&) const = default;
};

struct StepView {
    int recipeIndex = 0;    // index in the recipe's steps
    int stage = 0;          // the seed's stage (msmes 1-7) or the recipe's own grouping
    bool product = false;
    int productIndex = -1;  // among the recipe's products, 0..6; -1 for a sum
    QString formula;        // the seed's formula, as the recipe gives it
    QString words;          // the same in plain words
    QString stageName;      // "stage 2: multiplication, group 1"
    std::vector<BlockCell> reads;        // read, not written
    std::vector<BlockCell> overwrites;   // overwritten in place (a sum into A, B or C)
    std::vector<SignedCell> accumulates; // C blocks a product is added into (sign shown)
    double seconds = -1;    // measured time of the step's ops in a real run; -1: no run
};

// The seed's name of a block: grid 2 "A2"; grid 4 "A21" (block 1 of quarter A2).
QString blockName(const BlockCell& cell, int grid);
// The quarter (0..3) a cell lies in, and a quarter's cell in a grid-2 picture.
int quarterOf(const BlockCell& cell, int grid);

// The steps of one level of `variant`'s recipe (exactRestore drops msmes' and workspace's stages
// 6-7 at the top level, as the run does). node -1: the top level, drawn on a grid of `grid` cells
// (a quarter covers (grid/2)^2 cells). node k (0..6, grid 4): the level-2 recipe inside the top
// level's product k: its sums act on the sub-blocks of the quarters that product reads (for C, of
// its first target), its products accumulate into the sub-blocks of every target of product k.
std::vector<StepView> recipeSteps(StrassenVariant variant, bool exactRestore, int grid = 2, int node = -1);

// Which step of a recipe level each op of a real run belongs to, from the run's schedule (rebuilt
// from its config: deterministic, so op ids match the spans'). node as in recipeSteps.
struct StepAttribution {
    bool matched = false;            // the spans fit the rebuilt schedule (else no per-step times)
    QString why;                     // when not matched
    std::vector<int> stepOfOp;       // per op id: recipe index, -1: not inside this level's steps
    std::vector<int> firstLeafOfProduct;  // per product of the level: its first leaf's index (product:K)
};
StepAttribution attributeOps(const Schedule& schedule, int levels, bool exactRestore, StrassenVariant variant,
                             int node = -1);
// Fills StepView::seconds from the spans: the sum of its compute ops' durations.
void addMeasuredTimes(std::vector<StepView>& steps, const StepAttribution& attribution, const std::vector<Span>& spans);
// True when every span's op exists in the schedule with the same kind and block.
bool spansFitSchedule(const Schedule& schedule, const std::vector<Span>& spans);

// The family's --inject-at text for a click: "a:Q", "b:Q", "c:Q" from a block, "product:K".
QString faultForBlock(const BlockCell& cell, int grid);
QString faultForProduct(int leafIndex);

// Seconds per (level, stage) of the compute spans: the seed's Table 3.2 for a run.
struct StageTime {
    int level = 0, stage = 0;
    double seconds = 0;
};
std::vector<StageTime> stageTimes(const std::vector<Span>& spans);

}  // namespace gigacheck::ui::strassenlab
