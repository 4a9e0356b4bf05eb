// A Schedule is plain data: what runs, on which queue and stream, with which buffers, after what.
// Strategies build schedules (seed 000 figures 11-14, issued depth-first as in section 2.3);
// backends execute them. Nothing here touches memory.
#pragma once

#include "gigacheck/plan.hpp"

#include <string>
#include <vector>

namespace gigacheck {

enum class Queue { H2D, Compute, D2H };
// Recompute: never scheduled; the span of the repair pass after a run (run/repair.cpp).
enum class OpKind { CopyH2D, Checksum, Product, Inject, Verify, CopyD2H, Recompute };
enum class Operand { None, A, B, C };

std::string_view toString(Queue);
std::string_view toString(OpKind);

// A rectangle of a host matrix.
struct Region {
    Operand matrix = Operand::None;
    std::int64_t row = 0, col = 0, rows = 0, cols = 0;
};

struct Operation {
    int id = 0;  // index in Schedule::ops, which is also the issue order
    OpKind kind = OpKind::Product;
    Queue queue = Queue::Compute;
    int stream = 0;
    BlockIndex block;
    // Buffer slots (indices into Plan::buffers); -1 when unused.
    //  CopyH2D: dst <- host region. Checksum: dst (A: writes its checksum row, B: its checksum
    //  column). Product: dst (C) [+]= srcA * srcB, accumulate=false on the first k step, also
    //  accumulates the round-off bound into aux. Inject: dst (C). Verify: dst (C) with aux.
    //  CopyD2H: host region <- dst.
    int dst = -1, srcA = -1, srcB = -1, aux = -1;
    bool accumulate = false;
    Region host;  // CopyH2D / CopyD2H
    std::int64_t rows = 0, cols = 0, depth = 0;  // extents of the block product this op serves
    std::vector<int> deps;  // ids of earlier ops that must finish before this one starts
    double flops = 0;       // counted from the shape (see metrics in the README)
    double bytes = 0;       // bytes moved through the level the op works on
};

struct Schedule {
    Plan plan;
    std::vector<Operation> ops;
    int streams = 1;
};

// Builds the schedule of plan.strategy. Deterministic. Every ordering a backend must respect is
// an explicit dependency (stream numbers are only concurrency hints for the CUDA backend).
// withInjection: emit an Inject op after every block Product (a no-op when the FaultPlan has
// nothing for that product); runGemm passes FaultSpec::any(). The one-argument form emits them.
// With ABFT a Verify op follows every Product (and its Inject).
// A schedule holds ~7 operations per block product, ~1.2 KB with their deps (and a run keeps a
// span per operation): past this many products (~1.3 GB of schedule, plus spans) it would take
// gigabytes and a long wait before the first copy, so buildSchedule refuses such a plan
// (InputError: raise the memory cap).
inline constexpr std::int64_t kMaxScheduleProducts = std::int64_t(1) << 20;
Schedule buildSchedule(const Plan& plan);
Schedule buildSchedule(const Plan& plan, bool withInjection);

// Checks the invariants every backend relies on; returns an empty string when all hold, else a
// description of the first violation: deps point backwards; each buffer's readers and writers
// are ordered by deps (no read-after-write, write-after-read or write-after-write race); every C
// block is copied to the host exactly once, after its last product and verification.
std::string validateSchedule(const Schedule& schedule);

}  // namespace gigacheck
