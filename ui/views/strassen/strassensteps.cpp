#include "views/strassen/strassensteps.hpp"

// The family's recipe and op kinds are engine-internal data (ui/CMakeLists.txt names the folder).
#include "families/strassen/ops.hpp"
#include "families/strassen/recipe.hpp"

#include <QStringList>

#include <map>

namespace gigacheck::ui::strassenlab {

namespace {

using gigacheck::strassen::Matrix;
using gigacheck::strassen::Recipe;
using gigacheck::strassen::Step;

MatrixId operandOf(Matrix m)
{
    return m == Matrix::A ? MatrixId::A : m == Matrix::B ? MatrixId::B : MatrixId::C;
}

QChar letter(MatrixId o)
{
    return o == MatrixId::A ? QLatin1Char('A') : o == MatrixId::B ? QLatin1Char('B') : QLatin1Char('C');
}

// Sub-block `sub` (0..3) of quarter `quarter` in a grid-4 picture; sub -1: the quarter in a grid-2 one.
BlockCell cellOf(MatrixId o, int quarter, int sub)
{
    if (sub < 0)
        return {o, quarter / 2, quarter % 2};
    return {o, (quarter / 2) * 2 + sub / 2, (quarter % 2) * 2 + sub % 2};
}

// The cells a quarter covers in a grid (one in grid 2, four in grid 4).
std::vector<BlockCell> quarterCells(MatrixId o, int quarter, int grid)
{
    if (grid == 2)
        return {cellOf(o, quarter, -1)};
    std::vector<BlockCell> cells;
    for (int s = 0; s < 4; ++s)
        cells.push_back(cellOf(o, quarter, s));
    return cells;
}

QString stageName(StrassenVariant variant, const Step& s)
{
    if (variant == StrassenVariant::Msmes || variant == StrassenVariant::Workspace) {
        static const char* const kNames[] = {"",
                                             "addition / subtraction",
                                             "multiplication, group 1",
                                             "addition",
                                             "addition / subtraction",
                                             "multiplication, group 2",
                                             "recuperation 1",
                                             "recuperation 2"};
        if (s.stage >= 1 && s.stage <= 7)
            return QStringLiteral("stage %1: %2").arg(s.stage).arg(QLatin1String(kNames[s.stage]));
    }
    return QStringLiteral("stage %1: %2").arg(s.stage).arg(s.kind == Step::Kind::Product ? QStringLiteral("product")
                                                                                         : QStringLiteral("in-place sums"));
}

QString signWord(int sign)
{
    return sign > 0 ? QStringLiteral("+") : QStringLiteral("−");
}

}  // namespace

QString blockName(const BlockCell& cell, int grid)
{
    if (grid == 2)
        return QString(letter(cell.operand)) + QString::number(cell.row * 2 + cell.col);
    const int quarter = (cell.row / 2) * 2 + cell.col / 2, sub = (cell.row % 2) * 2 + cell.col % 2;
    return QString(letter(cell.operand)) + QString::number(quarter) + QString::number(sub);
}

int quarterOf(const BlockCell& cell, int grid)
{
    const int half = grid / 2;
    return (cell.row / half) * 2 + cell.col / half;
}

std::vector<StepView> recipeSteps(StrassenVariant variant, bool exactRestore, int grid, int node)
{
    const Recipe& recipe = gigacheck::strassen::recipeOf(variant);
    const bool dropRecovery =
        node < 0 && exactRestore && (variant == StrassenVariant::Msmes || variant == StrassenVariant::Workspace);
    // The top-level product whose level-2 node is shown (its operand quarters and targets).
    const Step* parent = nullptr;
    if (node >= 0) {
        int k = 0;
        for (const Step& s : recipe.steps)
            if (s.kind == Step::Kind::Product && k++ == node)
                parent = &s;
        if (!parent || grid != 4)
            return {};
    }
    // The cells a sum or a product's operand touches: a quarter at the top level, a sub-block of
    // the parent's quarter inside a node.
    auto cells = [&](MatrixId o, int block) -> std::vector<BlockCell> {
        if (!parent)
            return quarterCells(o, block, grid);
        const int quarter = o == MatrixId::A ? parent->a : o == MatrixId::B ? parent->b : parent->targets.front().block;
        return {cellOf(o, quarter, block)};
    };
    auto names = [&](const std::vector<BlockCell>& c) {
        QStringList n;
        for (const BlockCell& b : c)
            n << blockName(b, grid);
        return n.join(QStringLiteral(", "));
    };

    std::vector<StepView> steps;
    int productIndex = 0;
    for (std::size_t i = 0; i < recipe.steps.size(); ++i) {
        const Step& s = recipe.steps[i];
        if (dropRecovery && s.stage >= 6)
            break;
        StepView v;
        v.recipeIndex = int(i);
        v.stage = s.stage;
        v.formula = QString::fromUtf8(s.formula.data(), qsizetype(s.formula.size()));
        v.stageName = stageName(variant, s);
        if (s.kind == Step::Kind::Add) {
            const MatrixId o = operandOf(s.matrix);
            v.reads = cells(o, s.src);
            v.overwrites = cells(o, s.dst);
            const QString dst = names(v.overwrites), src = names(v.reads);
            v.words = QStringLiteral("%1 %2= %3: reads %3 and overwrites %1 in place (no workspace)")
                          .arg(dst, s.coefficient > 0 ? QStringLiteral("+") : QStringLiteral("−"), src);
            if (o == MatrixId::C)
                v.words += QStringLiteral("; C is kept transformed so that the next product lands in one block");
            else if (v.formula.contains(QLatin1String("recovered")) || (s.stage >= 6 && recipe.name == "msmes"))
                v.words += QStringLiteral("; this undoes an earlier sum (recovery)");
        } else {
            v.product = true;
            v.productIndex = productIndex++;
            v.reads = cells(MatrixId::A, s.a);
            const auto b = cells(MatrixId::B, s.b);
            v.reads.insert(v.reads.end(), b.begin(), b.end());
            QStringList into;
            const std::vector<gigacheck::strassen::Target> outer =
                parent ? parent->targets : std::vector<gigacheck::strassen::Target>{{-1, +1}};
            for (const auto& T : outer)
                for (const auto& t : s.targets) {
                    const int sign = T.sign * t.sign;
                    const std::vector<BlockCell> targetCells =
                        parent ? std::vector<BlockCell>{cellOf(MatrixId::C, T.block, t.block)} : quarterCells(MatrixId::C, t.block, grid);
                    for (const BlockCell& c : targetCells)
                        v.accumulates.push_back({c, sign});
                    into << QStringLiteral("%1 (%2)").arg(names(targetCells), signWord(sign));
                }
            v.words = QStringLiteral("multiply %1 by %2 and add the result into %3")
                          .arg(names(cells(MatrixId::A, s.a)), names(b), into.join(QStringLiteral(", ")));
            v.words += variant == StrassenVariant::Workspace
                           ? QStringLiteral("; computed once into the workspace block M, then added into each target")
                           : QStringLiteral("; each target is its own beta = 1 GEMM, no workspace");
        }
        steps.push_back(std::move(v));
    }
    return steps;
}

bool spansFitSchedule(const Schedule& schedule, const std::vector<Span>& spans)
{
    for (const Span& s : spans) {
        if (s.opId < 0 || s.opId >= int(schedule.ops.size()))
            return false;
        const Operation& op = schedule.ops[std::size_t(s.opId)];
        if (op.kind != s.kind || !(op.block == s.block))
            return false;
    }
    return true;
}

// The schedule is emitted depth-first in recipe order (plan/schedule_builder.cpp): an in-place sum
// at level l carries block {l, stage, node} with node = parent * 7 + child; a leaf product carries
// {levels, stage, leaf counter} and belongs to the node of the latest sum one level up. From that
// path each op finds its step at the level shown.
StepAttribution attributeOps(const Schedule& schedule, int levels, bool exactRestore, StrassenVariant variant, int node)
{
    using namespace gigacheck::strassen;
    StepAttribution out;
    out.stepOfOp.assign(schedule.ops.size(), -1);
    if (levels < 1 || (node >= 0 && levels < 2)) {
        out.why = node >= 0 ? QStringLiteral("a level-2 node needs a run of 2 levels or more")
                            : QStringLiteral("no Strassen level in this run (levels 0: one plain GEMM)");
        return out;
    }
    if (schedule.devices > 1) {
        out.why = QStringLiteral("the multi-device decomposition has its own tasks, shown by level and stage");
        return out;
    }
    const Recipe& recipe = recipeOf(variant);
    const bool dropRecovery =
        node < 0 && exactRestore && (variant == StrassenVariant::Msmes || variant == StrassenVariant::Workspace);
    std::vector<int> productSteps, addSteps;
    for (std::size_t i = 0; i < recipe.steps.size(); ++i) {
        if (dropRecovery && recipe.steps[i].stage >= 6)
            break;
        (recipe.steps[i].kind == Step::Kind::Product ? productSteps : addSteps).push_back(int(i));
    }
    out.firstLeafOfProduct.assign(productSteps.size(), -1);
    int pow7[kMaxStrassenLevels + 2] = {1};
    for (int i = 1; i < kMaxStrassenLevels + 2; ++i)
        pow7[i] = pow7[i - 1] * 7;

    // The level shown: 0 (top), or 1 (inside node `node`). For an op at depth d with path index p
    // (a level-d node index), the shown level's child on its path is digit (d - shown - 1) of p.
    const int shown = node >= 0 ? 1 : 0;
    int cursor = -1;  // recipe index of the last step attributed at the shown level's node
    int lastParent = -1, leafChild = 0;
    for (const Operation& op : schedule.ops) {
        if (op.queue != Queue::Compute)
            continue;
        int depth = -1, path = 0;
        bool sum = false;
        if (op.kind == kAdd && op.block.i < levels) {
            depth = op.block.i;
            path = op.block.k;
            sum = true;
            if (depth == levels - 1 && path != lastParent) {
                lastParent = path;
                leafChild = 0;
            }
        } else if ((op.kind == kProduct || op.kind == kScatter) && op.block.i == levels && levels >= 1) {
            depth = levels;
            if (lastParent < 0 && levels == 1)
                lastParent = 0;  // one level and no sum yet: impossible with these recipes, kept safe
            // A scatter (workspace) follows its product: same child.
            path = lastParent * 7 + (op.kind == kProduct ? leafChild++ : leafChild - 1);
        } else {
            continue;  // fringe products (level 0 of a deeper run), faults, copies
        }
        // Inside the node shown?
        if (node >= 0 && (depth < 1 || path / pow7[depth - 1] != node))
            continue;
        int step = -1;
        if (sum && depth == shown) {
            // The next sum of the recipe after the cursor.
            for (int a : addSteps)
                if (a > cursor) {
                    step = a;
                    break;
                }
        } else if (depth > shown) {
            const int child = (path / pow7[depth - shown - 1]) % 7;
            if (child < int(productSteps.size()))
                step = productSteps[std::size_t(child)];
            if (op.kind == kProduct && depth == levels && out.firstLeafOfProduct[std::size_t(child)] < 0)
                out.firstLeafOfProduct[std::size_t(child)] = op.block.k;
        }
        if (step < 0)
            continue;
        cursor = std::max(cursor, step);
        out.stepOfOp[std::size_t(op.id)] = step;
    }
    out.matched = true;
    return out;
}

void addMeasuredTimes(std::vector<StepView>& steps, const StepAttribution& attribution, const std::vector<Span>& spans)
{
    std::map<int, double> perStep;
    for (const Span& s : spans)
        if (s.opId >= 0 && s.opId < int(attribution.stepOfOp.size()) && attribution.stepOfOp[std::size_t(s.opId)] >= 0)
            perStep[attribution.stepOfOp[std::size_t(s.opId)]] += s.end - s.start;
    for (StepView& v : steps) {
        const auto it = perStep.find(v.recipeIndex);
        v.seconds = attribution.matched ? (it == perStep.end() ? 0.0 : it->second) : -1.0;
    }
}

QString faultForBlock(const BlockCell& cell, int grid)
{
    const QString prefix = cell.operand == MatrixId::A ? QStringLiteral("a") : cell.operand == MatrixId::B ? QStringLiteral("b")
                                                                                                            : QStringLiteral("c");
    return QStringLiteral("%1:%2").arg(prefix).arg(quarterOf(cell, grid));
}

QString faultForProduct(int leafIndex)
{
    return QStringLiteral("product:%1").arg(leafIndex);
}

std::vector<StageTime> stageTimes(const std::vector<Span>& spans)
{
    std::map<std::pair<int, int>, double> t;
    for (const Span& s : spans)
        if (s.queue == Queue::Compute)
            t[{s.block.i, s.block.j}] += s.end - s.start;
    std::vector<StageTime> out;
    for (const auto& [key, seconds] : t)
        out.push_back({key.first, key.second, seconds});
    return out;
}

}  // namespace gigacheck::ui::strassenlab
