// Emits operations for the strategies: fills extents, host regions, flops and bytes, and derives
// every dependency from the buffers the operation touches (read-after-write, write-after-read,
// write-after-write), so strategies only state the order of issue (depth-first, seed 2.3).
#pragma once

#include "gigacheck/blocked_gemm/plan.hpp"

namespace gigacheck {

class ScheduleBuilder {
public:
    // devices: each gets a copy of the plan's buffers (device d's slots d * L .. d * L + L - 1).
    ScheduleBuilder(const Plan& plan, bool withInjection, int streams, int devices = 1);

    // The device the next ops go on, and whose buffers the slots below name.
    void setDevice(int device) { device_ = device; }
    // Slots of the plan's buffers (see bufferLayout): A buffers, B buffers, C buffers, Aux buffers.
    int slotA(int n) const { return base() + n; }
    int slotB(int n) const { return base() + countA_ + n; }
    int slotC(int n) const { return base() + countA_ + countB_ + n; }
    int slotAux(int n) const { return plan_.abft ? base() + countA_ + countB_ + countC_ + n : -1; }

    void loadA(int i, int k, int slot, int stream);
    void loadB(int k, int j, int slot, int stream);
    // Checksum row of the A block / column of the B block serving product (i, j, k) (ABFT only).
    void checksumA(const BlockIndex& b, int slot, int stream);
    void checksumB(const BlockIndex& b, int slot, int stream);
    // Product, then Inject (when asked for) and Verify (with ABFT); the D2H copy of the C block
    // follows after the last k step.
    void product(const BlockIndex& b, int a, int bSlot, int c, int stream, int storeStream);

    // The schedule, the devices' ops interleaved in issue order (each device's order kept).
    GemmSchedule take();

private:
    int base() const { return device_ * int(plan_.buffers.size()); }
    Operation& add(Operation op);
    void setExtents(Operation& op, const BlockIndex& b) const;
    void checksum(const BlockIndex& b, int slot, int stream, Operand of);  // of: A or B

    Plan plan_;
    bool withInjection_;
    int countA_, countB_, countC_;
    int device_ = 0;
    double elem_;
    GemmSchedule schedule_;
    struct SlotState {
        int lastWriter = -1;
        std::vector<int> readersSinceWrite;
    };
    std::vector<SlotState> slots_;
};

}  // namespace gigacheck
