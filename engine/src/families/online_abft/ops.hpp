// The online ABFT family (the online-ABFT paper) as the executors see it: its op kinds, their names and the
// tables of their CPU and CUDA implementations.
#pragma once

#include "core/op_table.hpp"

namespace gigacheck::online_abft {

inline constexpr std::string_view kFamilyName = "online_abft";

// Family number 2 (the online-ABFT paper): kinds 2 * kOpKindsPerFamily + n.
inline constexpr std::uint16_t kFirstKind = 2 * kOpKindsPerFamily;
inline constexpr OpKind kLoadInputs{kFirstKind + 0};     // H2D: A and B into their augmented buffers
inline constexpr OpKind kEncode{kFirstKind + 1};         // checksum rows of A, columns of B (and input check)
inline constexpr OpKind kPanelProduct{kFirstKind + 2};   // C_f += A_c(:, P_j) B_r(P_j, :)
inline constexpr OpKind kInjectFault{kFirstKind + 3};    // the faults planned after this step
inline constexpr OpKind kCheck{kFirstKind + 4};          // verify / locate / correct C_f
inline constexpr OpKind kReplicaProduct{kFirstKind + 5}; // TMR: one of the three products
inline constexpr OpKind kVote{kFirstKind + 6};           // TMR: element-wise majority into replica 0
inline constexpr OpKind kStoreResult{kFirstKind + 7};    // D2H: C

std::span<const OpKindName> opKindNames();

const cpu::OpTable& cpuOps();    // cpu/op_table.cpp
const cuda::OpTable& cudaOps();  // cuda/op_table.cpp (CUDA builds only)

const FamilyOps& family();  // ops.cpp

}  // namespace gigacheck::online_abft
