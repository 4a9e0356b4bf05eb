// How the schedule checks name an operation in their refusals: "op 12 (product block 0,1,2)".
#pragma once

#include "gigacheck/schedule.hpp"

#include <sstream>
#include <string>

namespace gigacheck {

inline std::string opText(const Operation& op)
{
    std::ostringstream o;
    o << "op " << op.id << " (" << toString(op.kind) << " block " << op.block.i << "," << op.block.j << ","
      << op.block.k << ")";
    return o.str();
}

}  // namespace gigacheck
