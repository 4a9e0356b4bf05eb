// The step slider's model (the online-ABFT paper's Figures 2 and 3): an online ABFT run as a sequence
// of positions (each step's panel product, the faults that strike after it, the check that
// follows it), the frame of C at each position, and which faults have struck and which have been
// caught by then. Plain data, tested without a screen (tests/ui/tst_onlinelab.cpp).
#pragma once

#include "engine/onlinerun.hpp"

#include <QString>

#include <vector>

namespace gigacheck::ui {

// TMR has no panel steps: its positions are the three replicas' products (step = the replica),
// the faults struck into each, and the vote (a Check position after the last replica).
class OnlineStepModel {
public:
    // The most steps shown (the engine refuses records with more: online_validate.hpp).
    static constexpr int kMaxSteps = 1 << 20;
    static constexpr int kTmrReplicas = 3;
    enum class Phase { Product, Fault, Check };
    struct Position {
        int step = 0;
        Phase phase = Phase::Product;
        int frame = -1;  // index into the run's frames (the latest one up to here); -1: none
    };
    // A fault of the run: in C or its checksums (from the injections) or in an input.
    struct Fault {
        OnlineTarget target = OnlineTarget::Result;
        std::int64_t row = 0, col = 0;  // of C (of A / B for input faults)
        int step = -1;                  // after which step it struck; -1: before the checksums
        int caughtAtStep = -1;          // the check that found it; -1: never (or at encoding, for inputs)
        bool corrected = false;         // that check corrected it
    };
    struct FaultState {
        const Fault* fault = nullptr;
        bool caught = false;  // its check has run by this position
    };

    void setRun(OnlinePtr run);
    const OnlinePtr& run() const { return run_; }
    bool isTmr() const;
    int count() const { return int(positions_.size()); }
    const Position& position(int i) const { return positions_[std::size_t(i)]; }
    // The frame of C shown at position i (null without frames).
    const StepFrame* frame(int i) const;
    // The first position of (step, phase); -1 when the run has none.
    int positionOf(int step, Phase phase) const;
    const std::vector<Fault>& faults() const { return faults_; }
    // The faults struck by position i (after its step's faults when i is a Fault or Check position).
    std::vector<FaultState> faultsAt(int i) const;
    // The check of position i (null unless it is a Check position).
    const VerifyEvent* checkAt(int i) const;
    // One line: "step 3 of 8: check — corrected C(12, 40)".
    QString describe(int i) const;

private:
    void setTmrRun();
    QString describeTmr(const Position& p) const;

    OnlinePtr run_;
    std::vector<Position> positions_;
    std::vector<Fault> faults_;
};

}  // namespace gigacheck::ui
