// The blocked GEMM family's public API in one include (seed 000; engine/src/families/blocked_gemm/).
// Its headers keep their names beside the shared ones, so that code written against them is
// unchanged:
//   shared by every family: types.hpp, matrix.hpp, schedule.hpp, events.hpp, backend.hpp,
//                           record.hpp (the envelope), bench.hpp (devices, ceilings)
//   blocked GEMM's:         plan.hpp (splits under the cap, S1-S4), faults.hpp, abft.hpp,
//                           run.hpp (runGemm), record.hpp's config / plan / fault report / reference
#pragma once

#include "gigacheck/abft.hpp"
#include "gigacheck/faults.hpp"
#include "gigacheck/plan.hpp"
#include "gigacheck/record.hpp"
#include "gigacheck/run.hpp"
