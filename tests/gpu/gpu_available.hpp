// Shared by the GPU tests: skip visibly (QSKIP with the reason) when no CUDA device can be used.
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/cuda_status.hpp"

#include <QtTest>

#include <string>

#define GIGACHECK_REQUIRE_CUDA_DEVICE()                                                              \
    do {                                                                                           \
        if (!gigacheck::cudaCompiledIn())                                                          \
            QSKIP(("GPU test skipped: no CUDA backend: " + gigacheck::whyNoCudaBackend()).c_str()); \
        std::string gcWhy;                                                                         \
        if (!gigacheck::makeCudaBackend(&gcWhy))                                                   \
            QSKIP(("GPU test skipped: no CUDA device: " + gcWhy).c_str());                          \
    } while (0)
