// The strassen family (Krishnan's Strassen thesis) as the executors see it: its op kinds, their names, and the
// tables of their CPU and CUDA implementations (README.md "Adding a family").
#pragma once

#include "core/op_table.hpp"

#include <vector>

namespace gigacheck::strassen {

inline constexpr std::string_view kFamilyName = "strassen";
// Family number 3 (blocked GEMM 0; 1 and 2 are left to the online and gallery families).
inline constexpr std::uint16_t kFirstKind = 3 * kOpKindsPerFamily;

// Operands (Operation::operands), in this order:
//  kLoad / kRestore: [slot written]; host matrix in Operation::host (whole matrix).
//  kAdd:     [dst read-write, src read with coefficient]: dst += coefficient * src, in place.
//  kProduct: [A read, B read, target read-write (coefficient = sign), ...]: every target +=
//            sign * A*B (one beta=1 GEMM per target); workspace variant: [A, B, M written].
//  kScatter: [M read, target read-write (sign), ...]: every target += sign * M.
//  kInject:  [region read-write]; Operation::aux = index of the fault in the run's list.
//  kStore:   [slot read] copied to the host matrix in Operation::host.
//  kCopy:    [source read, destination written] (same extents).
inline constexpr OpKind kLoad{kFirstKind + 0};
inline constexpr OpKind kAdd{kFirstKind + 1};
inline constexpr OpKind kProduct{kFirstKind + 2};
inline constexpr OpKind kScatter{kFirstKind + 3};
inline constexpr OpKind kInject{kFirstKind + 4};
inline constexpr OpKind kStore{kFirstKind + 5};
inline constexpr OpKind kRestore{kFirstKind + 6};
// [source read, destination written]: a block copied between slots, on one device or from the
// source's device to the destination's (multi-device decomposition, plan/multi_device.cpp).
inline constexpr OpKind kCopy{kFirstKind + 7};
// Leaf checks (--check-leaves, leaf_check.hpp): [target C regions read..., leaf-check slot written]:
// the column sums and absolute sums of each target before its leaf product.
inline constexpr OpKind kLeafSums{kFirstKind + 8};
// [A read, B read, target C regions read (coefficient = sign)..., leaf-check slot read-write];
// Operation::aux = the leaf's index: the product's checksum relation checked on its targets, the
// largest residual / threshold written to the leaf's result cell.
inline constexpr OpKind kLeafVerify{kFirstKind + 9};
// [leaf-check slot read]: the leaves' results to the host (Inputs::leafResults).
inline constexpr OpKind kStoreLeafChecks{kFirstKind + 10};
// [region written]: set to zero (a decomposition task's result block, before its local Strassen
// accumulates into it).
inline constexpr OpKind kZero{kFirstKind + 11};

// Buffer slots of every strassen schedule.
inline constexpr int kSlotA = 0, kSlotB = 1, kSlotC = 2;  // then, where a schedule has them, the leaf workspace "M", the leaf checks, the remote blocks

std::span<const OpKindName> opKindNames();

// One backend's implementation of every op kind (CPU: cpu::OpFunction, CUDA: cuda::IssueFunction).
template <class Function> struct OpImplementations {
    Function load, add, product, scatter, inject, copy, zero, store, leafSums, leafVerify, storeLeafChecks;
};

// The rows of a backend's op table (cpu::OpEntry, cuda::OpEntry), the same kinds for both: kRestore
// is a load from the host copy.
template <class Entry, class Function> std::vector<Entry> opEntries(const OpImplementations<Function>& f)
{
    return {{kLoad, f.load},
            {kRestore, f.load},
            {kAdd, f.add},
            {kProduct, f.product},
            {kScatter, f.scatter},
            {kInject, f.inject},
            {kCopy, f.copy},
            {kZero, f.zero},
            {kStore, f.store},
            {kLeafSums, f.leafSums},
            {kLeafVerify, f.leafVerify},
            {kStoreLeafChecks, f.storeLeafChecks}};
}

const cpu::OpTable& cpuOps();    // cpu/op_table.cpp
const cuda::OpTable& cudaOps();  // cuda/op_table.cpp (CUDA builds only)

const FamilyOps& family();

}  // namespace gigacheck::strassen
