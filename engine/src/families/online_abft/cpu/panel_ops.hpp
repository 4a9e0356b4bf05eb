// The online ABFT family's CPU op implementations (OpenBLAS for the products, the host ABFT
// reference of engine/src/abft for checks), in the precision T of the run.
#pragma once

#include "core/op_table.hpp"
#include "families/online_abft/inputs.hpp"

#include "gigacheck/weighted_checksums.hpp"

namespace gigacheck::online_abft::cpu_ops {

// Per run: the round-off bound so far, what the encoding kept of the inputs (plain sums in double,
// against which a later fault in A or B is located), and how much of the inner dimension the
// panel products have consumed.
struct State final : cpu::RunState {
    BoundAccumulator plainBound;   // K = 1: the blocked family's bound, same thresholds
    WeightedBound weightedBound;   // K >= 2
    std::vector<double> rowSumsA, colSumsA, rowSumsB, colSumsB;
    std::int64_t consumed = 0;
};

std::unique_ptr<cpu::RunState> makeState(const cpu::OpContext& context);

template <class T> void loadInputs(cpu::OpContext& c, const Operation& op, OpOutcome& out);
template <class T> void encode(cpu::OpContext& c, const Operation& op, OpOutcome& out);
template <class T> void panelProduct(cpu::OpContext& c, const Operation& op, OpOutcome& out);
template <class T> void injectFault(cpu::OpContext& c, const Operation& op, OpOutcome& out);
template <class T> void check(cpu::OpContext& c, const Operation& op, OpOutcome& out);
template <class T> void replicaProduct(cpu::OpContext& c, const Operation& op, OpOutcome& out);
template <class T> void vote(cpu::OpContext& c, const Operation& op, OpOutcome& out);
template <class T> void storeResult(cpu::OpContext& c, const Operation& op, OpOutcome& out);

}  // namespace gigacheck::online_abft::cpu_ops
