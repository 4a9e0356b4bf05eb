#include "onlinestepmodel.hpp"

#include <QStringList>

#include <algorithm>

namespace gigacheck::ui {

namespace {

bool isKind(OpKind kind, std::string_view name)
{
    return toString(kind) == name;
}

OnlineStepModel::Phase phaseOf(OpKind kind)
{
    if (isKind(kind, "inject-fault"))
        return OnlineStepModel::Phase::Fault;
    if (isKind(kind, "check"))
        return OnlineStepModel::Phase::Check;
    return OnlineStepModel::Phase::Product;
}

// The check at or after `step` that saw the cell (its row or column mismatched, or it corrected it).
const VerifyEvent* catcher(const OnlineRecord& r, int step, std::int64_t row, std::int64_t col)
{
    for (const VerifyEvent& e : r.verifications) {
        if (e.block.k < step || e.result.verdict == Verdict::Clean)
            continue;
        const auto has = [](const std::vector<std::int64_t>& v, std::int64_t x) {
            return std::find(v.begin(), v.end(), x) != v.end();
        };
        const bool corrected = std::any_of(e.result.corrections.begin(), e.result.corrections.end(),
                                           [&](const Correction& c) { return c.row == row && c.col == col; });
        if (corrected || has(e.result.mismatchRows, row) || has(e.result.mismatchCols, col))
            return &e;
    }
    return nullptr;
}

QString targetName(OnlineTarget t)
{
    switch (t) {
    case OnlineTarget::Result: return QStringLiteral("C");
    case OnlineTarget::ChecksumRow: return QStringLiteral("checksum row");
    case OnlineTarget::ChecksumCol: return QStringLiteral("checksum column");
    case OnlineTarget::A: return QStringLiteral("A");
    case OnlineTarget::B: return QStringLiteral("B");
    }
    return {};
}

}  // namespace

void OnlineStepModel::setRun(OnlinePtr run)
{
    run_ = std::move(run);
    positions_.clear();
    faults_.clear();
    if (!run_ || run_->record.config.scheme == Scheme::Tmr)
        return;
    const OnlineRecord& r = run_->record;
    const Shape& s = r.config.shape;
    // The faults: C and its checksums from the injections (augmented coordinates), inputs from
    // what was applied and what the checks reported.
    for (const InjectEvent& e : r.injections) {
        const Injection& in = e.injection;
        Fault f;
        f.target = in.target == FaultTarget::ChecksumRow   ? OnlineTarget::ChecksumRow
                   : in.target == FaultTarget::ChecksumCol ? OnlineTarget::ChecksumCol
                                                           : OnlineTarget::Result;
        f.row = in.localRow;
        f.col = in.localCol;
        f.step = in.block.k;
        if (const VerifyEvent* c = catcher(r, f.step, f.row, f.col)) {
            f.caughtAtStep = c->block.k;
            f.corrected = c->result.verdict == Verdict::Corrected;
        }
        faults_.push_back(f);
    }
    for (const OnlineFault& a : r.appliedInputFaults) {
        Fault f;
        f.target = a.target;
        f.row = a.row;
        f.col = a.col;
        f.step = a.step.value_or(-1);
        for (const InputFaultReport& rep : r.inputFaults)
            if (rep.operand == a.target && rep.row == a.row && rep.col == a.col) {
                f.caughtAtStep = rep.caughtAtStep;
                f.corrected = rep.corrected;
            }
        faults_.push_back(f);
    }
    (void)s;
    const auto hasFaultAfter = [&](int step) {
        return std::any_of(faults_.begin(), faults_.end(), [&](const Fault& f) { return f.step == step; });
    };
    const std::vector<StepFrame>& frames = run_->frames.frames;
    std::size_t next = 0;
    int latest = -1;
    const auto add = [&](int step, Phase phase) {
        // Frames arrive in schedule order: take every frame up to this position's own.
        while (next < frames.size() &&
               (frames[next].step < step || (frames[next].step == step && int(phaseOf(frames[next].kind)) <= int(phase))))
            latest = int(next++);
        positions_.push_back({step, phase, latest});
    };
    for (int j = 0; j < r.steps; ++j) {
        add(j, Phase::Product);
        if (hasFaultAfter(j))
            add(j, Phase::Fault);
        if (std::find(r.checkSteps.begin(), r.checkSteps.end(), j) != r.checkSteps.end())
            add(j, Phase::Check);
    }
}

const StepFrame* OnlineStepModel::frame(int i) const
{
    if (i < 0 || i >= count() || !run_ || positions_[std::size_t(i)].frame < 0)
        return nullptr;
    return &run_->frames.frames[std::size_t(positions_[std::size_t(i)].frame)];
}

int OnlineStepModel::positionOf(int step, Phase phase) const
{
    for (int i = 0; i < count(); ++i)
        if (positions_[std::size_t(i)].step == step && positions_[std::size_t(i)].phase == phase)
            return i;
    return -1;
}

std::vector<OnlineStepModel::FaultState> OnlineStepModel::faultsAt(int i) const
{
    std::vector<FaultState> out;
    if (i < 0 || i >= count())
        return out;
    const Position& p = positions_[std::size_t(i)];
    for (const Fault& f : faults_) {
        const bool struck = f.step < p.step || (f.step == p.step && p.phase != Phase::Product);
        if (!struck)
            continue;
        const bool caught = f.caughtAtStep >= 0 &&
                            (f.caughtAtStep < p.step || (f.caughtAtStep == p.step && p.phase == Phase::Check));
        out.push_back({&f, caught});
    }
    return out;
}

const VerifyEvent* OnlineStepModel::checkAt(int i) const
{
    if (i < 0 || i >= count() || positions_[std::size_t(i)].phase != Phase::Check)
        return nullptr;
    for (const VerifyEvent& e : run_->record.verifications)
        if (e.block.k == positions_[std::size_t(i)].step)
            return &e;
    return nullptr;
}

QString OnlineStepModel::describe(int i) const
{
    if (i < 0 || i >= count())
        return run_ && run_->record.config.scheme == Scheme::Tmr
                   ? QStringLiteral("TMR runs three whole products: no steps to show")
                   : QStringLiteral("No online ABFT run");
    const Position& p = positions_[std::size_t(i)];
    const OnlineRecord& r = run_->record;
    const std::int64_t b = r.config.panelWidth();
    QString head = QStringLiteral("Step %1 of %2").arg(p.step + 1).arg(r.steps);
    switch (p.phase) {
    case Phase::Product:
        return head + QStringLiteral(": C += A(:, %1..%2) · B(%1..%2, :); the checksum row and column follow")
                          .arg(std::int64_t(p.step) * b)
                          .arg(std::min<std::int64_t>(r.config.shape.n, std::int64_t(p.step + 1) * b) - 1);
    case Phase::Fault: {
        QStringList struck;
        for (const Fault& f : faults_)
            if (f.step == p.step)
                struck << QStringLiteral("%1(%2, %3)").arg(targetName(f.target)).arg(f.row).arg(f.col);
        return head + QStringLiteral(": fault in %1").arg(struck.join(QStringLiteral(", ")));
    }
    case Phase::Check: {
        const VerifyEvent* e = checkAt(i);
        if (!e)
            return head + QStringLiteral(": check");
        const VerifyResult& v = e->result;
        const std::string_view verdict = toString(v.verdict);
        QString what = QString::fromUtf8(verdict.data(), qsizetype(verdict.size()));
        if (v.verdict == Verdict::Corrected) {
            QStringList cells;
            for (const Correction& c : v.corrections)
                if (cells.size() < 4)
                    cells << QStringLiteral("(%1, %2)").arg(c.row).arg(c.col);
            what += QStringLiteral(" %1 cell(s) %2").arg(v.corrections.size()).arg(cells.join(QStringLiteral(" ")));
            for (const InputFaultReport& in : r.inputFaults)
                if (in.caughtAtStep == p.step)
                    what += QStringLiteral("; input fault in %1(%2, %3) restored").arg(targetName(in.operand)).arg(in.row).arg(in.col);
        } else if (v.verdict == Verdict::Uncorrectable) {
            what += QStringLiteral(": %1 rows × %2 columns mismatch%3")
                        .arg(v.mismatchRows.size())
                        .arg(v.mismatchCols.size())
                        .arg(r.recomputed ? QStringLiteral(" (the product is computed again)") : QString());
        }
        return head + QStringLiteral(": check — ") + what;
    }
    }
    return head;
}

}  // namespace gigacheck::ui
