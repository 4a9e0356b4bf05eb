// A Schedule is plain data: what runs, on which device, queue and stream, with which buffers,
// after what. A family's schedule builder makes it (blocked GEMM: the strategies S1-S4 of seed
// 000 figures 11-14, issued depth-first as in section 2.3); the executors (backends) run it,
// looking each op's implementation up in the family's op table. Nothing here touches memory.
#pragma once

#include "gigacheck/plan.hpp"

#include <string>
#include <vector>

namespace gigacheck {

enum class Queue { H2D, Compute, D2H };
// What an operation does: an open set. Each family names its kinds and maps each to its CPU and
// CUDA implementation in its own op tables (engine/src/core/op_table.hpp); the executors never
// switch on a kind. The blocked GEMM family's six kinds are named here because records, the
// timeline and the roofline name them; another family defines its kinds as constants in its own
// header, with values from its own range (family number * kOpKindsPerFamily + n).
// Recompute: never scheduled; the span of the repair pass after a run (blocked_gemm/run/repair.cpp).
enum class OpKind : std::uint16_t { CopyH2D, Checksum, Product, Inject, Verify, CopyD2H, Recompute };
inline constexpr std::uint16_t kOpKindsPerFamily = 256;
enum class Operand { None, A, B, C };

std::string_view toString(Queue);
// The name a family gave the kind ("copy-h2d", "product", ...); "?" for a kind no family names.
std::string_view toString(OpKind);
// Throws InputError for a name no family of this build gives a kind.
OpKind opKindFromString(std::string_view);

// How an operation uses one of its operands.
enum class Access : std::uint8_t { Read, Write, ReadWrite };

// One operand of an operation: a buffer slot, the part of it the op touches (whole buffer when
// rows == 0) and the coefficient it enters with (Strassen's C_l += M, C_m -= M: +1 and -1;
// A2 = A2 + A3: A2 read-write with +1, A3 read with +1). Dependencies and the validation are
// derived from these, whatever the kind.
struct OperandRegion {
    int slot = -1;
    Access access = Access::Read;
    std::int64_t row = 0, col = 0, rows = 0, cols = 0;
    double coefficient = 1;
};

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
    int device = 0;  // index among the run's devices (CPU backend: one emulated device)
    BlockIndex block;
    // Every buffer slot the op reads or writes, in an order its family's implementation knows.
    std::vector<OperandRegion> operands;
    // The blocked GEMM family's names for its operand slots (indices into Plan::buffers, mirrored
    // in operands by its builder); -1 when unused.
    //  CopyH2D: dst <- host region. Checksum: dst (A: writes its checksum row, B: its checksum
    //  column). Product: dst (C) [+]= srcA * srcB, accumulate=false on the first k step, also
    //  accumulates the round-off bound into aux. Inject: dst (C). Verify: dst (C) with aux.
    //  CopyD2H: host region <- dst.
    int dst = -1, srcA = -1, srcB = -1, aux = -1;
    bool accumulate = false;
    Region host;  // CopyH2D / CopyD2H
    std::int64_t rows = 0, cols = 0, depth = 0;  // extents of the block product this op serves
    std::vector<int> deps;  // ids of earlier ops that must finish before this one starts
    // CUDA: also waits for the previous `exclusive` op of any stream, so that these ops run one
    // at a time (S1-S3 products, seed figure 10; see core/cuda/cuda_backend.cpp).
    bool exclusive = false;
    double flops = 0;       // counted from the shape (see metrics in the README)
    double bytes = 0;       // bytes moved through the level the op works on
};

struct Schedule {
    std::string family;  // whose op tables run it ("blocked_gemm")
    // What the executors take from it: the buffers (slots), the cap and the precision; the rest
    // is the blocked GEMM family's.
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

// The slots an op reads and writes, from its operands (a read-write slot is listed in both).
struct OpAccess {
    std::vector<int> reads, writes;
};
OpAccess accessOf(const Operation& op);

// Checks the invariants every executor relies on, whatever the family; returns an empty string
// when all hold, else a description of the first violation: ids are the issue order, deps point
// backwards, streams and slots exist, and each buffer's readers and writers are ordered by deps
// (no read-after-write, write-after-read or write-after-write race).
std::string validateOperations(const Schedule& schedule);

// validateOperations, then the blocked GEMM family's own invariants: queues match the kinds,
// every product is the next k step of its block, every C block is copied to the host exactly
// once, after its last product and verification.
std::string validateSchedule(const Schedule& schedule);

}  // namespace gigacheck
