// A Schedule is plain data: what runs, on which device, queue and stream, with which buffers,
// after what. A family's schedule builder makes it (blocked GEMM: the strategies S1-S4 of seed
// 000 figures 11-14, issued depth-first as in section 2.3); the executors (backends) run it,
// looking each op's implementation up in the family's op table. Nothing here touches memory, and
// nothing here belongs to one family: a family keeps its own plan beside the schedule (blocked
// GEMM: gigacheck/blocked_gemm/plan.hpp, GemmSchedule) and hands it to its ops through its FamilyInputs.
#pragma once

#include "gigacheck/types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gigacheck {

// Which piece of the problem an op (and its span) serves: three coordinates whose meaning the
// family defines (blocked GEMM: block (i, j, k) multiplies A(i, k) by B(k, j) into C(i, j); a
// family with fewer dimensions leaves the others 0). The timeline and the records show them.
struct BlockIndex {
    int i = 0, j = 0, k = 0;
    bool operator==(const BlockIndex&) const = default;
};

// What a buffer holds, for reports and the record. A, B, C and Aux are blocked GEMM's names (with
// ABFT on, A blocks carry one extra row, B blocks one extra column and C blocks both; Aux holds
// the small per-block vectors of the round-off bound; Workspace: what a stream's block products'
// GEMM takes beside the blocks, its copies of A and B and partial sums); Other is any other
// family's buffer, which its name describes.
enum class BufferRole { A, B, C, Aux, Other, Workspace };

// One device (or emulated) buffer: a slot of the schedule. The executors allocate it on its device
// and charge its bytes to that device's cap.
struct BufferSpec {
    std::string name;  // "A", "A'", "B", "B'", "C", "C'", "auxC", ...
    BufferRole role = BufferRole::A;
    std::int64_t rows = 0, cols = 0;  // capacity in elements, augmentation included
    std::int64_t ld = 0;              // leading dimension (elements), >= cols
    std::size_t bytes = 0;            // rows * ld * elementSize, what the cap is charged
    int device = 0;                   // index among the schedule's devices
};

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
// What an op does in the lab's colour language, whatever its family: the timeline colours and
// its legend go by role, so a new family's kinds are drawn as what they are (a load, a product,
// a check) without the views knowing the family.
enum class OpRole : std::uint8_t { Load, Checksum, Product, Sums, Inject, Verify, Store, Recompute, Other };
// The role its family gave the kind; Other for a kind no family names.
OpRole roleOf(OpKind);
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
    int device = 0;  // index among the schedule's devices: where it runs (its queue and stream are that device's)
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
    // CUDA: also waits for the previous `exclusive` op of any stream of its device, so that these ops run one
    // at a time (S1-S3 products, seed figure 10; see core/cuda/cuda_backend.cpp).
    bool exclusive = false;
    double flops = 0;       // counted from the shape (see metrics in the README)
    double bytes = 0;       // bytes moved through the level the op works on
};

struct Schedule {
    std::string family;  // whose op tables run it ("blocked_gemm")
    // The buffer slots the ops name (OperandRegion::slot indexes this), each on its device.
    std::vector<BufferSpec> buffers;
    // The memory cap of each device: the buffers placed on one device never exceed it together.
    std::uint64_t capBytes = 0;
    std::vector<Operation> ops;
    int streams = 1;  // streams per device
    // Streams (indices < streams, on every device) whose compute work the CUDA backend issues at the
    // device's greatest priority: the block scheduler gives their kernels the SMs a GEMM on another
    // stream frees before that GEMM's own waiting blocks, so a short kernel on them does not wait
    // behind every wave of the GEMM. The CPU executor has no priorities and ignores it.
    std::vector<int> urgentStreams;
    int devices = 1;  // devices the schedule places ops and buffers on (indices 0..devices-1)
};

// The slots an op reads and writes, from its operands (a read-write slot is listed in both).
struct OpAccess {
    std::vector<int> reads, writes;
};
OpAccess accessOf(const Operation& op);

// Checks the invariants every executor relies on, whatever the family; returns an empty string
// when all hold, else a description of the first violation: ids are the issue order, deps point
// backwards, streams, devices and slots exist (an op may name buffers of other devices: a copy
// between devices), and each buffer's readers and writers are ordered by deps (no read-after-write,
// write-after-read or write-after-write race). The caps are the executors' to enforce.
std::string validateOperations(const Schedule& schedule);

}  // namespace gigacheck
