// The checksum passes of a product whose tensor cores multiply BF16 / FP16 inputs (FP32 accumulation
// and C): the quantities of checksumB / checksumProducts (abft_device.hpp), taken over the operands
// as the GEMM reads them, from either source:
//   FP32 operands (the run path)   each value is rounded to nearest in registers and the 16-bit copy
//                                  the GEMM reads is written by the same read (read 4 bytes, write 2);
//                                  the FP32 operands in memory are not written;
//   16-bit operands                read as they are, 2 bytes per element, nothing written.
// r_B and B's row 2-norms (checksum column included) live wherever the caller keeps them: column
// cols and cols + 1 of an FP32 B (stride ldb), or a float buffer of 2 x depth (stride 2).
#pragma once

#include "abft/cuda/abft_device.hpp"

namespace gigacheck::cuda {

// A BF16 / FP16 product's operand: row-major, `data` FP32 or already 16-bit.
struct Operand16 {
    const void* data = nullptr;
    Index ld = 0;
    bool is16Bit = false;
};

// Where r_B[k] and the 2-norm of B's row k are kept: rb[k * stride], rb[k * stride + 1].
struct RowChecksumsB {
    float* rb = nullptr;
    Index stride = 2;
};

// One pass over B (depth x cols): r_B and the row norms of the values rounded to `format`.
void checksumB16(InputFormat format, Operand16 b, Index depth, Index cols, RowChecksumsB out, cudaStream_t s);

// The products' passes of checksumProducts with input rounding (rowScale / colScale take the
// checksum scales): C[i, cols] (+)= A r_B, C[rows, j] (+)= c_A B_r, the bounds into aux, C FP32
// (rows + 1) x ldc. After checksumB16 of the same B. a16 / b16 (FP32 sources only, else null): the
// 16-bit copies of A (rows x depth) and B (depth x cols), packed, written by the same reads.
void checksumProducts16(InputFormat format, Operand16 a, Operand16 b, RowChecksumsB rowChecksums, float* c, Index ldc,
                        Index rows, Index depth, Index cols, AuxView aux, bool accumulate, void* a16, void* b16,
                        cudaStream_t s);

// The passes of a product on 16-bit operands prepared at entry (prepared_operands.hpp): each reads
// its operand X (row-major, already 16-bit) once, with the prepared vectors v and w over the inner
// dimension k.
// Rows of X (rows x depth): out[i * outStride] += sum_k x_ik v_k, scale[i] += sum_k x_ik^2 w_k
// (out null: no dots, scale null: no squares; the same for the columns).
void rowDots16(InputFormat format, const void* x, Index ld, Index rows, Index depth, const double* v, const double* w,
               float* out, Index outStride, double* scale, cudaStream_t s);
// Columns of X (depth x cols): out[j] += sum_k v_k x_kj, scale[j] += sum_k w_k x_kj^2; v and w null:
// 1 (the column sums and sums of squares).
void columnDots16(InputFormat format, const void* x, Index ld, Index depth, Index cols, const double* v,
                  const double* w, float* out, double* scale, cudaStream_t s);
void columnDots16(InputFormat format, const void* x, Index ld, Index depth, Index cols, const double* v,
                  const double* w, double* out, double* scale, cudaStream_t s);

}  // namespace gigacheck::cuda
