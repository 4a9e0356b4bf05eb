// The online ABFT family's CPU op implementations (OpenBLAS for the products, the host ABFT
// reference of engine/src/abft for checks), in the precision T of the run.
#pragma once

#include "core/op_table.hpp"
#include "families/online_abft/host_check.hpp"
#include "families/online_abft/inputs.hpp"

#include "gigacheck/weighted_checksums.hpp"

namespace gigacheck::online_abft::cpu_ops {

// Per run: the check state shared with the CUDA host-checked path (host_check.hpp).
struct State final : cpu::RunState {
    CheckState check;
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
