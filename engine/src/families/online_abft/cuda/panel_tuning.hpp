// How the online family tunes its panel GEMMs (gemm_tuning.hpp): 256 x 128 tiles are kept when
// alone they are at most 3 % slower than the fastest configuration. Alone, cuBLASLt's 128 x 128
// kernel (2 CTAs per SM, the whole register file) is ~1 % faster; in the run's sustained series of
// products it is ~3 % slower, and the 256 x 128 kernel (one CTA per SM) leaves room for a check
// beside it. Measured on the H200: resources/results/probes/panel_stagger_probe_output_H200.txt and
// the A/B of the online README's section "Tiles".
#pragma once

#include "gemm/cuda/gemm_tuning.hpp"

#include <cublasLt.h>

namespace gigacheck::online_abft::cuda {

inline gigacheck::cuda::TuningOptions panelTuningOptions()
{
    gigacheck::cuda::TuningOptions o;
    o.preferredTiles = {CUBLASLT_MATMUL_TILE_256x128};
    o.preferWithin = 0.03;
    return o;
}

}  // namespace gigacheck::online_abft::cuda
