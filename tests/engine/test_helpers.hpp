// Small helpers shared by the engine tests.
#pragma once

#include "gigacheck/types.hpp"

#include <QString>

#include <string_view>

#include <time.h>

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

// CPU time this thread has used, in ms: "refused quickly" checks measure the work done, not the
// wall clock, which a loaded CI machine stretches at will.
inline double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

}  // namespace gigacheck::test
