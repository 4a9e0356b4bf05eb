// The CPU time the calling thread itself has used, in ms (CLOCK_THREAD_CPUTIME_ID): what the GUI
// thread's own work costs, whatever the load of the machine (a thread waiting for a core does
// not accumulate it, unlike a wall clock).
#pragma once

#include <ctime>

namespace gigacheck::ui::test {

inline double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

}  // namespace gigacheck::ui::test
