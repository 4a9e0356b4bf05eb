// FamilyOps::cuda of a family's ops.cpp: its CUDA op table in a CUDA build, null in one without
// (where the family's cudaOps() does not exist), written once instead of an #ifdef per family.
#pragma once

#ifdef GIGACHECK_HAVE_CUDA
#define GIGACHECK_CUDA_OPS_OR_NULL(cudaOpsFunction) (&cudaOpsFunction())
#else
#define GIGACHECK_CUDA_OPS_OR_NULL(cudaOpsFunction) nullptr
#endif
