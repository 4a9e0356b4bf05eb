// Models of the multi-device decomposition's time (seed chapter 4) from single-GPU rates and the
// link between GPUs, shared by `gigacheck bench strassen` and `gigacheck bench multi-gpu-strassen`.
#pragma once

#include "gigacheck/schedule.hpp"

#include <vector>

namespace gigacheck::strassen {

// The Strassen issue's model (family README "Bench and model"): G devices, `tasks` products of
// size N/2 (7 Strassen-Winograd, 8 2D) in ceil(tasks / G) rounds of taskSeconds each, `sums` block
// sums of blockBytes (read twice, written once) spread over the devices at deviceGBs (read + write
// counted), and per round three blocks per device over the link, plus the sums' blocks; no link
// time on one device.
double issueModelSeconds(int devices, int tasks, int sums, double taskSeconds, double blockBytes, double deviceGBs,
                         double linkGBs);

// The model of this lab's schedule: every op costed from measured rates (a product: one GEMM of its
// shape per target at gemmSeconds of N/2; a sum or scatter: its bytes at deviceGBs; a copy: its
// bytes at linkGBs, or at localCopyGBs between two logical devices of one GPU). Each GPU's time is
// the sum of its compute ops (logical devices sharing a GPU add up) or of one copy queue's ops,
// whichever is longer; a remote device also waits for its first task's operands and its last
// result's way back. T = the longest of them. `gpuOf` maps schedule devices to CUDA ordinals.
struct ScheduleRates {
    double gemmSeconds = 0;  // one product at the tasks' size (cuBLAS, N/2)
    double deviceGBs = 0;    // device copy bandwidth, read + write counted
    double linkGBs = 0;      // between two distinct GPUs, one direction
    double localCopyGBs = 0; // between two logical devices of one GPU, one direction
};
double scheduleModelSeconds(const Schedule& schedule, double elementBytes, const std::vector<int>& gpuOf,
                            const ScheduleRates& rates);

}  // namespace gigacheck::strassen
