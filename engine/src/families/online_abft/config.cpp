// The online ABFT family's configuration: names of its enums, steps and checks, and the checks
// that refuse inconsistent settings before anything runs.
#include "gigacheck/online_abft.hpp"

#include "gigacheck/weighted_checksums.hpp"

#include <algorithm>

namespace gigacheck {

namespace {
constexpr EnumName<Scheme> kSchemes[] = {
    {Scheme::Blocked, "blocked", "Blocked ABFT (S1-S4)", "Blocked GEMM under a memory cap, checked after every block product (the Gigacheck report)."},
    {Scheme::Online, "online", "Online ABFT", "Panel outer products, checksums kept after every step, checked every fq steps."},
    {Scheme::Offline, "offline", "Offline ABFT", "The same panel products, checked once at the end; recomputed when it cannot correct."},
    {Scheme::Tmr, "tmr", "TMR", "Three products and an element-wise majority vote."},
};
constexpr EnumName<OnlineTarget> kTargets[] = {
    {OnlineTarget::Result, "result", "Result C"},
    {OnlineTarget::ChecksumRow, "checksum-row", "Checksum row"},
    {OnlineTarget::ChecksumCol, "checksum-col", "Checksum column"},
    {OnlineTarget::A, "a", "Input A"},
    {OnlineTarget::B, "b", "Input B"},
};
constexpr EnumName<StepMerge> kStepMerges[] = {
    {StepMerge::Auto, "auto", "Auto", "One GEMM per group of unchecked steps on the GPU, one per step on the CPU."},
    {StepMerge::On, "on", "Merged", "The steps between two checks as one GEMM."},
    {StepMerge::Off, "off", "Every step", "One GEMM per step."},
};
}  // namespace

template <> const EnumTable<Scheme>& enumTable<Scheme>()
{
    static const EnumTable<Scheme> table{"scheme", kSchemes};
    return table;
}
template <> const EnumTable<OnlineTarget>& enumTable<OnlineTarget>()
{
    static const EnumTable<OnlineTarget> table{"fault target", kTargets};
    return table;
}
template <> const EnumTable<StepMerge>& enumTable<StepMerge>()
{
    static const EnumTable<StepMerge> table{"step merge", kStepMerges};
    return table;
}
std::string_view toString(StepMerge m) { return nameOf(m); }
StepMerge stepMergeFromString(std::string_view s) { return valueOfName<StepMerge>(s); }
std::string_view toString(Scheme s) { return nameOf(s); }
Scheme schemeFromString(std::string_view s) { return valueOfName<Scheme>(s); }
std::string_view toString(OnlineTarget t) { return nameOf(t); }
OnlineTarget onlineTargetFromString(std::string_view s) { return valueOfName<OnlineTarget>(s); }

std::int64_t OnlineConfig::panelWidth() const
{
    return panel > 0 ? std::min(panel, shape.n) : std::min<std::int64_t>(shape.n, 1024);
}

int OnlineConfig::steps() const
{
    const std::int64_t b = panelWidth();
    return b > 0 ? int((shape.n + b - 1) / b) : 0;
}

bool OnlineConfig::checksAfter(int step) const
{
    const int last = steps() - 1;
    if (step == last)
        return true;
    const int fq = scheme == Scheme::Offline ? 0 : checkEvery;
    return fq > 0 && (step + 1) % fq == 0;
}

namespace {

// --type bf16 / f16: FP32 values whose panel products read 16-bit inputs (--gemm cublas-bf16 / cublas-f16).
bool multipliesIn16Bit(const OnlineConfig& c)
{
    const InputFormat f = inputFormatOf(c.gemm);
    return f == InputFormat::Bf16 || f == InputFormat::F16;
}

bool hasInputTarget(const OnlineConfig& c)
{
    return std::any_of(c.faults.begin(), c.faults.end(), [](const OnlineFault& f) {
        return f.target == OnlineTarget::A || f.target == OnlineTarget::B;
    });
}

// Why a config runs on the host-checked path (inputs.hpp hostChecked: K >= 2, or faults in A / B);
// empty when it does not.
std::string whyHostChecked(const OnlineConfig& c)
{
    if (c.checksums > 1)
        return "--checksums " + std::to_string(c.checksums) + " runs on the host-checked path";
    if (hasInputTarget(c))
        return "faults in A or B run on the host-checked path";
    return {};
}

// Column blocks exist on the GPU's device path only (README "Column blocks"): there each block's
// products and checks run on their own stream and one block's epilogue and check hide under the
// other's GEMM. The CPU has no second stream to gain from, and the host-checked path (K >= 2,
// inputs) waits on the host at every check; TF32 rounds A in place in the products' own pass,
// which two blocks would do at once.
std::string whyOneColumnBlock(const OnlineConfig& c, BackendKind backend)
{
    if (backend != BackendKind::Cuda)
        return "the CPU backend builds C as one block (column blocks overlap on CUDA streams)";
    if (c.scheme == Scheme::Tmr)
        return "TMR has no checksums to split";
    if (const std::string why = whyHostChecked(c); !why.empty())
        return why + ", which checks C whole";
    if (multipliesIn16Bit(c))
        return "--type " + std::string(c.gemm == GemmVariant::CublasBf16 ? "bf16" : "f16") +
               " runs its panel products as one block (the blocks' overlap is built and measured for FP32 products; "
               "with BF16 the CUTLASS kernel's epilogue spares the checks their read of C instead)";
    if (c.gemm == GemmVariant::Tf32x3)
        return "--gemm tf32x3 runs its panel products as one block (the blocks' overlap is built and measured for "
               "FP32 products)";
    if (c.gemm != GemmVariant::Cublas)
        return "--gemm " + std::string(toString(c.gemm)) +
               " rounds A in place in each product's pass over it: one block at a time";
    return {};
}

constexpr std::int64_t kMinBlockColumns = 64;
constexpr int kMaxColumnBlocks = 8;

void validateColumnBlocks(const OnlineConfig& c, BackendKind backend)
{
    if (c.columnBlocks < 0 || c.columnBlocks > kMaxColumnBlocks)
        throw InputError("--column-blocks must be auto or 1.." + std::to_string(kMaxColumnBlocks) + " (got " +
                         std::to_string(c.columnBlocks) + ")");
    if (c.columnBlocks <= 1)
        return;
    const std::string why = whyOneColumnBlock(c, backend);
    if (!why.empty())
        throw InputError("--column-blocks " + std::to_string(c.columnBlocks) + ": " + why + "; use --column-blocks 1 or auto");
    if (c.shape.q < kMinBlockColumns * c.columnBlocks)
        throw InputError("--column-blocks " + std::to_string(c.columnBlocks) + " needs at least " +
                         std::to_string(kMinBlockColumns) + " columns of C per block (q = " + std::to_string(c.shape.q) +
                         ")");
}

}  // namespace

int resolvedColumnBlocks(const OnlineConfig& c, BackendKind backend)
{
    if (c.columnBlocks > 0)
        return c.columnBlocks;
    // Auto: two blocks where the split's overlap pays (measured on an H200: README "Column
    // blocks"); below q = 4096 a GEMM of half of C no longer fills the GPU.
    return whyOneColumnBlock(c, backend).empty() && c.shape.q >= 4096 ? 2 : 1;
}

namespace {

// Merging needs the device path or the CPU's own check (README "Merged steps"): TMR has no steps,
// and the host-checked path (K >= 2, faults in A / B) tracks its bound and input sums per step.
std::string whyNoMerge(const OnlineConfig& c)
{
    if (c.scheme == Scheme::Tmr)
        return "TMR has no panel steps";
    if (const std::string why = whyHostChecked(c); !why.empty())
        return why + ", which keeps one product per step";
    return {};
}

}  // namespace

bool resolvedMergeSteps(const OnlineConfig& c, BackendKind backend)
{
    if (c.mergeSteps == StepMerge::Off || !whyNoMerge(c).empty())
        return false;
    return c.mergeSteps == StepMerge::On || backend == BackendKind::Cuda;
}

void validateOnlineConfig(const OnlineConfig& c, BackendKind backend)
{
    const Shape& s = c.shape;
    if (s.m <= 0 || s.n <= 0 || s.q <= 0)
        throw InputError("shape " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.q) +
                         " is empty: m, n and q must all be at least 1");
    if (s.m > 2147483647 - 16 || s.n > 2147483647 || s.q > 2147483647 - 16)
        throw InputError("a dimension of the shape exceeds 2^31 - 1");
    if (c.scheme == Scheme::Blocked)
        throw InputError("the blocked scheme runs in the blocked GEMM family (runGemm), not here");
    if (c.panel < 0)
        throw InputError("--panel must be at least 1");
    if (c.checkEvery < 0)
        throw InputError("--check-every must be 0 (only at the end) or more");
    if (c.checksums < 1 || c.checksums > kMaxChecksums)
        throw InputError("--checksums must be 1.." + std::to_string(kMaxChecksums) + " (got " +
                         std::to_string(c.checksums) + ")");
    if (!(c.thresholdLambda > 0))
        throw InputError("the threshold factor lambda must be a positive number");
    if (c.randomErrors < 0)
        throw InputError("the number of errors cannot be negative");
    if (c.model == FaultModel::BitFlip) {
        // Refused here, before anything runs, rather than by the first fault that strikes.
        const int bits = c.precision == Precision::F64 ? 64 : 32;
        const std::string type(toString(c.precision));
        if (c.bit >= bits || c.bit2 >= bits)
            throw InputError("--fault: bit " + std::to_string(std::max(c.bit, c.bit2)) + " is outside an " + type +
                             " element (bits 0-" + std::to_string(bits - 1) + ")");
        if (c.bit2 >= 0 && c.bit2 == (c.bit >= 0 ? c.bit : bits - 2))
            throw InputError("--fault bitflip:" + std::to_string(c.bit2) + "+" + std::to_string(c.bit2) +
                             ": two bits of one word are two different bits");
    }
    if (c.scheme != Scheme::Tmr) {
        const std::int64_t b = c.panelWidth();
        if ((s.n + b - 1) / b > kMaxOnlineSteps)
            throw InputError("--panel " + std::to_string(b) + " makes " + std::to_string((s.n + b - 1) / b) +
                             " steps of n = " + std::to_string(s.n) + "; a run keeps at most " +
                             std::to_string(kMaxOnlineSteps) + ": choose a wider --panel");
    }
    const int steps = c.steps();
    for (const OnlineFault& f : c.faults) {
        const std::string where = "fault " + std::to_string(f.row) + "," + std::to_string(f.col) + " (" +
                                  std::string(toString(f.target)) + ")";
        std::int64_t rows = s.m, cols = s.q;
        switch (f.target) {
        case OnlineTarget::Result: break;
        case OnlineTarget::ChecksumRow: rows = c.checksums; break;
        case OnlineTarget::ChecksumCol: cols = c.checksums * resolvedColumnBlocks(c, backend); break;
        case OnlineTarget::A: rows = s.m, cols = s.n; break;
        case OnlineTarget::B: rows = s.n, cols = s.q; break;
        }
        if (f.row < 0 || f.col < 0 || f.row >= rows || f.col >= cols)
            throw InputError(where + " is outside its matrix (" + std::to_string(rows) + " x " + std::to_string(cols) +
                             (f.target == OnlineTarget::ChecksumRow || f.target == OnlineTarget::ChecksumCol
                                  ? "; the row / column index names one of the K checksum vectors (checksum-col: "
                                    "with G column blocks, the block's checksum column)"
                                  : "") +
                             ")");
        if (c.scheme == Scheme::Tmr) {
            if (f.target != OnlineTarget::Result)
                throw InputError(where + ": TMR has no checksums and no corruptible input copy; use --target result");
            if (f.step && (*f.step < 0 || *f.step > 2))
                throw InputError(where + ": with --scheme tmr, @STEP names the replica (0, 1 or 2), got " +
                                 std::to_string(*f.step));
        } else if (f.step && (*f.step < 0 || *f.step >= steps)) {
            throw InputError(where + ": @" + std::to_string(*f.step) + " is beyond the " + std::to_string(steps) +
                             " step(s) of this product (steps 0.." + std::to_string(steps - 1) + ", panel width " +
                             std::to_string(c.panelWidth()) + ")");
        }
    }
    if (multipliesIn16Bit(c)) {
        const std::string type = c.gemm == GemmVariant::CublasBf16 ? "bf16" : "f16";
        if (c.precision != Precision::F32)
            throw InputError("--type " + type + " (--gemm " + std::string(toString(c.gemm)) + ") multiplies FP32 values "
                             "with 16-bit inputs; the values here are " + std::string(toString(c.precision)));
        // TMR settles a disputed cell by computing it again in double from A and B as stored, which
        // for 16-bit inputs is not the product the replicas made (their operands are rounded).
        if (c.scheme == Scheme::Tmr)
            throw InputError("--scheme tmr with --type " + type + ": the vote's recomputation of a disputed cell is "
                             "derived for FP32 / FP64 products only; use --scheme online or offline");
    }
    // tf32x3: the threshold's allowance for the tensor cores' accumulation (gigacheck/tf32x3.hpp) is
    // derived for one checksum row and column; the weighted checksums' threshold has none.
    if (c.gemm == GemmVariant::Tf32x3 && c.checksums > 1)
        throw InputError("--checksums " + std::to_string(c.checksums) + " with --gemm tf32x3: the threshold of "
                         "weighted checksums is derived for FP32 / FP64 products only (tf32x3's allows for the tensor "
                         "cores' accumulation with one checksum row and column); use --checksums 1");
    validateColumnBlocks(c, backend);
    if (c.mergeSteps == StepMerge::On && !whyNoMerge(c).empty())
        throw InputError("--merge-steps on: " + whyNoMerge(c) + "; use --merge-steps auto or off");
    if (backend == BackendKind::Cuda && c.scheme != Scheme::Tmr) {
        // cutlass-tf32: the CUTLASS TF32 kernel whose epilogue writes C's sums (README "C's sums
        // from the product"), cuBLAS TF32 where it cannot take the shape.
        // cublas-bf16 / cublas-f16 (--type bf16|f16): 16-bit inputs, FP32 accumulation and C; the
        // CUTLASS 16-bit kernel writes C's sums where it takes the panel (README "16-bit inputs").
        // tf32x3: cuBLAS TF32 products of the panels' big and small parts, checked as FP32.
        if (c.gemm != GemmVariant::Cublas && c.gemm != GemmVariant::CublasTf32 && c.gemm != GemmVariant::CutlassTf32 &&
            c.gemm != GemmVariant::Tf32x3 && !multipliesIn16Bit(c))
            throw InputError("online ABFT on the GPU multiplies with --gemm cublas, cublas-tf32, cutlass-tf32 or "
                             "tf32x3, or with 16-bit inputs (--type bf16|f16: cublas-bf16, cublas-f16) (got " +
                             std::string(toString(c.gemm)) + ")");
        if (c.gemm == GemmVariant::Tf32x3 && hasInputTarget(c))
            throw InputError("--target a|b with --gemm tf32x3 on the GPU: faults in A or B run on the host-checked "
                             "path, whose threshold is derived for FP32 / FP64 products only (tf32x3's allows for "
                             "the tensor cores' accumulation on the device's path); use --gemm cublas, or faults in C");
        // K >= 2 and faults in A / B run on the host-checked path (README "On the GPU"): the
        // weighted thresholds there are derived for FP32 / FP64 products only. TF32 needs the
        // operands rounded where the checksums see it and a part for truncating accumulation
        // (abft README "Detection threshold"), derived and measured for the device's K = 1 path.
        // BF16 / FP16 likewise: rounded operands, the tensor cores' accumulation.
        const bool inputTarget = hasInputTarget(c);
        const std::string with = multipliesIn16Bit(c) ? "--type " + std::string(c.gemm == GemmVariant::CublasBf16 ? "bf16" : "f16")
                                                      : "--gemm " + std::string(toString(c.gemm));
        const std::string rounds = multipliesIn16Bit(c) ? std::string(c.gemm == GemmVariant::CublasBf16 ? "BF16" : "FP16")
                                                        : std::string("TF32");
        if (roundsOperands(c.gemm) && (c.checksums > 1 || inputTarget))
            throw InputError(std::string(c.checksums > 1 ? "--checksums " + std::to_string(c.checksums)
                                                         : std::string("--target a|b")) +
                             " with " + with + ": the threshold of weighted checksums and of the host-checked "
                             "path is derived for FP32 / FP64 products only (" + rounds + " rounds the operands and may truncate "
                             "the accumulation: its threshold exists for one checksum row and column on the device); "
                             "use " + (multipliesIn16Bit(c) ? std::string("--type f32") : std::string("--gemm cublas")) +
                             ", or --checksums 1 with faults in C");
    }
}

}  // namespace gigacheck
