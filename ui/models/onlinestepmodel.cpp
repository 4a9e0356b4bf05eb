#include "onlinestepmodel.hpp"

#include <gigacheck/online_abft/catchers.hpp>

#include <QStringList>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_set>

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
    if (!run_)
        return;
    if (isTmr()) {
        setTmrRun();
        return;
    }
    const OnlineRecord& r = run_->record;
    // The faults: C and its checksums from the injections (augmented coordinates), inputs from
    // what was applied and what the checks reported.
    OnlineCatchers catchers(r);
    for (const InjectEvent& e : r.injections) {
        const Injection& in = e.injection;
        Fault f;
        f.target = in.target == FaultTarget::ChecksumRow   ? OnlineTarget::ChecksumRow
                   : in.target == FaultTarget::ChecksumCol ? OnlineTarget::ChecksumCol
                                                           : OnlineTarget::Result;
        f.row = in.localRow;
        f.col = in.localCol;
        f.step = in.block.k;
        if (const VerifyEvent* c = catchers.find(f.step, f.row, f.col)) {
            f.caughtAtStep = c->block.k;
            f.corrected = c->result.verdict == Verdict::Corrected;
        }
        faults_.push_back(f);
    }
    std::map<std::tuple<OnlineTarget, std::int64_t, std::int64_t>, const InputFaultReport*> reports;
    for (const InputFaultReport& rep : r.inputFaults)
        reports[{rep.operand, rep.row, rep.col}] = &rep;  // the last one, as before
    for (const OnlineFault& a : r.appliedInputFaults) {
        Fault f;
        f.target = a.target;
        f.row = a.row;
        f.col = a.col;
        f.step = a.step.value_or(-1);
        if (const auto rep = reports.find({a.target, a.row, a.col}); rep != reports.end()) {
            f.caughtAtStep = rep->second->caughtAtStep;
            f.corrected = rep->second->corrected;
        }
        faults_.push_back(f);
    }
    // Positions are a few per step: their number follows the record's steps, which the reader
    // bounds (online_validate.hpp, 2^20); bounded here too, so that a record read some other way
    // cannot make the step view build billions of them.
    const int steps = std::clamp(r.steps, 0, kMaxSteps);
    std::vector<char> faultAfter(std::size_t(steps), 0), checkAfter(std::size_t(steps), 0);
    for (const Fault& f : faults_)
        if (f.step >= 0 && f.step < steps)
            faultAfter[std::size_t(f.step)] = 1;
    for (int step : r.checkSteps)
        if (step >= 0 && step < steps)
            checkAfter[std::size_t(step)] = 1;
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
    for (int j = 0; j < steps; ++j) {
        add(j, Phase::Product);
        if (faultAfter[std::size_t(j)])
            add(j, Phase::Fault);
        if (checkAfter[std::size_t(j)])
            add(j, Phase::Check);
    }
}

bool OnlineStepModel::isTmr() const
{
    return run_ && run_->record.config.scheme == Scheme::Tmr;
}

void OnlineStepModel::setTmrRun()
{
    const OnlineRecord& r = run_->record;
    // A fault in a replica is caught by the vote when its cell is one the vote disputed (the list
    // holds the first kMaxDisputedCells; past it, any dispute counts).
    const int vote = kTmrReplicas - 1;
    for (const InjectEvent& e : r.injections) {
        Fault f;
        f.row = e.injection.localRow;
        f.col = e.injection.localCol;
        f.step = std::clamp(e.injection.block.k, 0, vote);
        if (r.vote) {
            const auto& d = r.vote->disputed;
            const bool listed = std::find(d.begin(), d.end(), std::pair{f.row, f.col}) != d.end();
            if (listed || (r.vote->disputes() > 0 && std::int64_t(d.size()) >= kMaxDisputedCells)) {
                f.caughtAtStep = vote;
                f.corrected = r.vote->settled();
            }
        }
        faults_.push_back(f);
    }
    for (int replica = 0; replica < kTmrReplicas; ++replica) {
        positions_.push_back({replica, Phase::Product, -1});
        if (std::any_of(faults_.begin(), faults_.end(), [replica](const Fault& f) { return f.step == replica; }))
            positions_.push_back({replica, Phase::Fault, -1});
    }
    positions_.push_back({vote, Phase::Check, -1});
}

QString OnlineStepModel::describeTmr(const Position& p) const
{
    const OnlineRecord& r = run_->record;
    switch (p.phase) {
    case Phase::Product:
        return QStringLiteral("Replica %1 of %2: C%3 = A · B, the whole product").arg(p.step + 1).arg(kTmrReplicas).arg(p.step);
    case Phase::Fault: {
        QStringList struck;
        for (const Fault& f : faults_)
            if (f.step == p.step)
                struck << QStringLiteral("C%1(%2, %3)").arg(p.step).arg(f.row).arg(f.col);
        return QStringLiteral("Replica %1 of %2: fault in %3").arg(p.step + 1).arg(kTmrReplicas).arg(struck.join(QStringLiteral(", ")));
    }
    case Phase::Check:
        break;
    }
    if (!r.vote)
        return QStringLiteral("Vote: cell by cell, C keeps the value two replicas agree on");
    const VoteReport& v = *r.vote;
    return QStringLiteral("Vote: cell by cell, C keeps the value two replicas agree on — %1 cell(s) outvoted, %2 without a "
                          "majority; %3 disputed cell(s) computed again from A and B")
        .arg(v.cellsOutvoted)
        .arg(v.cellsWithoutMajority)
        .arg(v.cellsRecomputed);
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
        return QStringLiteral("No online ABFT run");
    const Position& p = positions_[std::size_t(i)];
    if (isTmr())
        return describeTmr(p);
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
