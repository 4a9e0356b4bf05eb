// One run, one verdict: what the status bar, the Report, the Run log, the
// timeline and the animations say of a run, derived once from its record, so that no two of them
// can disagree. Blocked GEMM records answer from RunRecord (verifiedCorrect / notVerified /
// verifiedBy, the fault report); online ABFT runs from their own OnlineRecord (the checks, the
// recompute, the vote, the input faults).
#pragma once

#include <gigacheck/blocked_gemm/record.hpp>
#include <gigacheck/online_abft.hpp>

#include <QString>

namespace gigacheck::ui {

struct RunVerdict {
    enum class Kind { Verified, NotCorrect, NotVerified, Cancelled, Failed };
    Kind kind = Kind::NotVerified;
    QString scheme;  // what ran: "s2", "auto→s2", "online fq 1", "offline", "TMR"
    QString words;   // "verified correct", "could not be verified correct", ...
    QString by;      // what the verdict rests on ("the ABFT checks and a recompute")
    int injected = 0, detected = 0, corrected = 0, correctedByRecompute = 0, uncorrectable = 0;
    bool recomputed = false;
    double recomputeSeconds = 0;
    double gflops = 0;  // useful rate: 2 m n q over the execute time

    // "3 injected, 3 detected, 2 corrected, 1 corrected by recompute, 0 uncorrectable"
    QString counts() const;
    QString shortCounts() const;  // the counts that are not zero (the status bar)
    // "C is verified correct (checked by the ABFT checks and a recompute)"
    QString headline() const;
    // The headline and the counts: the one line every view shows.
    QString summary() const;
    // The status bar's words at the end of a run.
    QString statusLine() const;
};

RunVerdict runVerdictOf(const RunRecord& record);
RunVerdict runVerdictOf(const OnlineRecord& record);
// The record the lab shows, whatever its family: each answers from its own section (a family
// without one here answers from the envelope: its status only).
RunVerdict runVerdictOf(const RecordEnvelope& record);

// A blocked run's strategy: "s2", or "auto→s2" when the cost-model planner chose it.
QString strategyLabel(const RunConfig& config);

// An online scheme as the lab names it: "online fq 1", "offline", "TMR".
QString schemeLabel(const OnlineConfig& config);
// A run of it as the status bar and the log name it: "online fq 1, b = 256, 2048×2048×2048".
QString onlineRunLabel(const OnlineConfig& config);

}  // namespace gigacheck::ui
