// What the online ABFT family's ops work on besides the buffers: the settings of the run, the
// faults at their steps, the host checksums of the inputs, and what the ops find (input faults,
// the vote). Handed to the executors as ExecutionRequest::inputs; the ops reach it through
// inputsOf().
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/online_abft.hpp"
#include "gigacheck/schedule.hpp"

#include <mutex>

namespace gigacheck::online_abft {

// A fault with everything resolved: its delta (or bit) and the moment it strikes.
struct PlannedFault {
    OnlineFault at;        // at.step: after which step (C targets), -1 before encoding (A / B), the replica (TMR)
    FaultModel model = FaultModel::Delta;
    double delta = 0;
    int bit = 0;
    double before = 0, after = 0;
    bool applied = false;
};

// Buffer slots of the schedule (plan.buffers).
// ABFT: A_c, B_r, C_f, aux. TMR: A, B, replicas 0 (the result), 1 and 2, the vote's scratch.
enum Slot : int { kSlotA = 0, kSlotB = 1, kSlotC = 2, kSlotAux = 3, kSlotReplica1 = 3, kSlotReplica2 = 4, kSlotVote = 5 };

struct OnlineInputs final : FamilyInputs {
    Shape shape;
    Precision precision = Precision::F32;
    HostMatrix* a = nullptr;  // m x n, read by load-inputs (stays clean: faults strike the copies)
    HostMatrix* b = nullptr;  // n x q
    HostMatrix* c = nullptr;  // m x q, written by store-result
    Scheme scheme = Scheme::Online;
    int checksums = 1;
    std::int64_t panel = 1;
    int steps = 1;
    int checkEvery = 1;  // 0: only after the last step
    double lambda = 4.0;
    GemmVariant gemm = GemmVariant::Cublas;
    std::vector<PlannedFault> faults;
    // Host checksums of the inputs as they were made (A e, e^T A, B e, e^T B), against which the
    // encoding finds an input corrupted before its checksums were taken.
    std::vector<double> hostRowSumsA, hostColSumsA, hostRowSumsB, hostColSumsB;

    // C after each op that changes it, for a viewer (null: nobody asked; CPU ops only).
    const StepSnapshotSink* onStep = nullptr;

    // Filled by the ops (compute queue only).
    std::vector<InputFaultReport> inputFaults;
    std::optional<VoteReport> vote;
};

OnlineInputs& inputsOf(const ExecutionRequest& request);  // ops.cpp
// FamilyOps::checkInputs: the inputs present, the host matrices of the shape and precision.
void checkInputs(const ExecutionRequest& request, const std::string& backendName);

// A buffer slot of the schedule.
inline const BufferSpec& bufferOf(const Schedule& schedule, int slot)
{
    return schedule.buffers[std::size_t(slot)];
}

// The faults that strike right after this op (an InjectFault op of step / replica block.k).
std::vector<std::size_t> faultsAfter(const OnlineInputs& in, int step);

}  // namespace gigacheck::online_abft
