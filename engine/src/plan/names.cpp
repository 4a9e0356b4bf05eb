#include "gigacheck/schedule.hpp"

namespace gigacheck {

std::string_view toString(Queue q)
{
    switch (q) {
    case Queue::H2D: return "H2D";
    case Queue::Compute: return "compute";
    case Queue::D2H: return "D2H";
    }
    return "?";
}

std::string_view toString(OpKind k)
{
    switch (k) {
    case OpKind::CopyH2D: return "copy-h2d";
    case OpKind::Checksum: return "checksum";
    case OpKind::Product: return "product";
    case OpKind::Inject: return "inject";
    case OpKind::Verify: return "verify";
    case OpKind::CopyD2H: return "copy-d2h";
    case OpKind::Recompute: return "recompute";
    }
    return "?";
}

}  // namespace gigacheck
