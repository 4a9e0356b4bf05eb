// The online ABFT family's CPU op table: each kind mapped to its function in panel_ops.cpp, in the
// run's precision. The CPU executor (core/cpu) looks ops up here.
#include "families/online_abft/ops.hpp"

#include "families/online_abft/cpu/panel_ops.hpp"

namespace gigacheck::online_abft {

namespace {


#define GIGACHECK_ONLINE_CPU_OP(name)                                                   \
    void name(cpu::OpContext& c, const Operation& op, OpOutcome& out)                   \
    {                                                                                   \
        if (inputsOf(c.request).precision == Precision::F32)                                \
            cpu_ops::name<float>(c, op, out);                                           \
        else                                                                            \
            cpu_ops::name<double>(c, op, out);                                          \
    }

GIGACHECK_ONLINE_CPU_OP(loadInputs)
GIGACHECK_ONLINE_CPU_OP(encode)
GIGACHECK_ONLINE_CPU_OP(panelProduct)
GIGACHECK_ONLINE_CPU_OP(injectFault)
GIGACHECK_ONLINE_CPU_OP(check)
GIGACHECK_ONLINE_CPU_OP(replicaProduct)
GIGACHECK_ONLINE_CPU_OP(vote)
GIGACHECK_ONLINE_CPU_OP(storeResult)
#undef GIGACHECK_ONLINE_CPU_OP

}  // namespace

const cpu::OpTable& cpuOps()
{
    static const cpu::OpTable table{
        cpu_ops::makeState,
        {{kLoadInputs, loadInputs},
         {kEncode, encode},
         {kPanelProduct, panelProduct},
         {kInjectFault, injectFault},
         {kCheck, check},
         {kReplicaProduct, replicaProduct},
         {kVote, vote},
         {kStoreResult, storeResult}},
    };
    return table;
}

}  // namespace gigacheck::online_abft
