// Basic vocabulary shared by every layer: precisions, shapes, enums and the error types.
#pragma once

#include "gigacheck/names.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gigacheck {

enum class Precision { F32, F64 };
enum class Distribution { Uniform, Normal, Wide };
enum class StrategyKind { None, S1, S2, S3, S4 };
enum class BackendKind { Auto, Cpu, Cuda };
// Product implementation on the CUDA backend; the CPU backend uses OpenBLAS (cublas-tf32: OpenBLAS
// on operands rounded to TF32, emulating the tensor cores' inputs).
// cublas-bf16 / cublas-f16: FP32 storage, operands rounded to BF16 / FP16 and multiplied by cuBLAS
// with 16-bit inputs, FP32 accumulation and an FP32 C (`--type bf16|f16`).
// tf32x3: FP32 operands split into TF32 big + small parts, C = A_big B_small + A_small B_big +
// A_big B_big, three TF32 tensor-core products accumulated in FP32 (gigacheck/tf32x3.hpp); its
// operands are not rounded (inputFormatOf: F32) and its checksums are those of an FP32 product.
enum class GemmVariant { Naive, Tiled, Optimized, Cublas, CublasTf32, CutlassTf32, CublasBf16, CublasF16, Tf32x3 };

// The variants that multiply FP32 operands in TF32 on the tensor cores (cuBLAS's, and the CUTLASS
// kernel whose epilogue writes C's sums): their checksums are taken over TF32-rounded operands.
constexpr bool multipliesInTf32(GemmVariant v) { return v == GemmVariant::CublasTf32 || v == GemmVariant::CutlassTf32; }

// The format the tensor cores read FP32 operands in (gigacheck/input_rounding.hpp rounds to it).
enum class InputFormat { F32, Tf32, Bf16, F16 };
constexpr InputFormat inputFormatOf(GemmVariant v)
{
    return multipliesInTf32(v)                ? InputFormat::Tf32
           : v == GemmVariant::CublasBf16     ? InputFormat::Bf16
           : v == GemmVariant::CublasF16      ? InputFormat::F16
                                              : InputFormat::F32;
}
// The operand blocks are rounded before the product and their checksums taken over the rounded values.
constexpr bool roundsOperands(GemmVariant v) { return inputFormatOf(v) != InputFormat::F32; }

// A (m x n) * B (n x q) = C (m x q), all row-major.
struct Shape {
    std::int64_t m = 0, n = 0, q = 0;
    bool operator==(const Shape&) const = default;
};
// "MxNxQ", as --shape takes it.
std::string shapeText(const Shape& shape);

std::size_t elementSize(Precision p);

// Name tables (names.hpp): stable names used by the CLI, the JSON record and the GUI.
template <> const EnumTable<Precision>& enumTable<Precision>();
template <> const EnumTable<Distribution>& enumTable<Distribution>();
template <> const EnumTable<StrategyKind>& enumTable<StrategyKind>();  // description: describe()
template <> const EnumTable<BackendKind>& enumTable<BackendKind>();
template <> const EnumTable<GemmVariant>& enumTable<GemmVariant>();

// The tables' names; fromString throws InputError.
std::string_view toString(Precision);
std::string_view toString(Distribution);
std::string_view toString(StrategyKind);
std::string_view toString(BackendKind);
std::string_view toString(GemmVariant);
Precision precisionFromString(std::string_view);
Distribution distributionFromString(std::string_view);
StrategyKind strategyFromString(std::string_view);
BackendKind backendFromString(std::string_view);
GemmVariant gemmFromString(std::string_view);

// One-line description of a strategy (the Gigacheck report's section 5), for reports and the GUI.
std::string_view describe(StrategyKind);

// "10MB", "256MiB", "4GiB", "123" (bytes). Decimal KB/MB/GB = 1000^k, KiB/MiB/GiB = 1024^k.
std::uint64_t parseSize(std::string_view);
std::string formatBytes(double bytes);  // "320.43 MB"

// Bad input from the user (shape, sizes, file content, a cap too small): the caller reports it.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// A failure of the machinery (device lost, out of memory, CUDA error) while a run goes on.
struct BackendError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace gigacheck
