// Small helpers shared by the engine tests.
#pragma once

#include "gigacheck/types.hpp"

#include <QString>

#include <string_view>

namespace gigacheck::test {

inline QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

// The message of the InputError that f throws, or an empty string when it throws none.
template <class F>
QString inputErrorOf(F&& f)
{
    try {
        f();
    } catch (const InputError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

}  // namespace gigacheck::test
