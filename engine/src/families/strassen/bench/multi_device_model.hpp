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
// bytes at linkGBs, or at localCopyGBs within one GPU), then played in issue order along the
// schedule's own dependencies: an op starts when its dependencies and the op before it on its
// stream have ended, a product also after the GPU's previous product. T = the last op's end (host
// loads and stores cost nothing, as the measured time leaves them out). For the schedule of
// 81c4856 on 4 H100s (14336^3 FP64) it gives Winograd G = 4 76.4 ms against 83.1 measured, where
// the older per-GPU sum said 32.7: the chain of in-place sums on device 0 waited for its
// products. `gpuOf` maps the schedule's devices to CUDA ordinals.
struct ScheduleRates {
    double gemmSeconds = 0;  // one product at the tasks' size (cuBLAS, N/2)
    double deviceGBs = 0;    // device copy bandwidth, read + write counted
    double linkGBs = 0;      // between two distinct GPUs, one direction
    double localCopyGBs = 0; // between two logical devices of one GPU, one direction
};
double scheduleModelSeconds(const Schedule& schedule, double elementBytes, const std::vector<int>& gpuOf,
                            const ScheduleRates& rates);

}  // namespace gigacheck::strassen
