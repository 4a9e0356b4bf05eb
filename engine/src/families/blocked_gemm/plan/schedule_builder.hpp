// Emits operations for the strategies: fills extents, host regions, flops and bytes, and derives
// every dependency from the buffers the operation touches (read-after-write, write-after-read,
// write-after-write), so strategies only state the order of issue (depth-first, seed 2.3).
#pragma once

#include "gigacheck/plan.hpp"

namespace gigacheck {

class ScheduleBuilder {
public:
    ScheduleBuilder(const Plan& plan, bool withInjection, int streams);

    // Slots of the plan's buffers (see bufferLayout): A buffers, B buffers, C buffers, Aux buffers.
    int slotA(int n) const { return n; }
    int slotB(int n) const { return countA_ + n; }
    int slotC(int n) const { return countA_ + countB_ + n; }
    int slotAux(int n) const { return plan_.abft ? countA_ + countB_ + countC_ + n : -1; }

    void loadA(int i, int k, int slot, int stream);
    void loadB(int k, int j, int slot, int stream);
    // Checksum row of the A block / column of the B block serving product (i, j, k) (ABFT only).
    void checksumA(const BlockIndex& b, int slot, int stream);
    void checksumB(const BlockIndex& b, int slot, int stream);
    // Product, then Inject (when asked for) and Verify (with ABFT); the D2H copy of the C block
    // follows after the last k step.
    void product(const BlockIndex& b, int a, int bSlot, int c, int stream, int storeStream);

    GemmSchedule take() { return std::move(schedule_); }

private:
    Operation& add(Operation op);
    void setExtents(Operation& op, const BlockIndex& b) const;

    Plan plan_;
    bool withInjection_;
    int countA_, countB_, countC_;
    double elem_;
    GemmSchedule schedule_;
    struct SlotState {
        int lastWriter = -1;
        std::vector<int> readersSinceWrite;
    };
    std::vector<SlotState> slots_;
};

}  // namespace gigacheck
