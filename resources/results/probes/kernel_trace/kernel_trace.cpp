// A stand-alone kernel tracer (not built by CMake) for the device machine, where nsys cannot make a
// report: a CUPTI activity library that the CUDA driver loads into any program through
// CUDA_INJECTION64_PATH, recording every kernel, memset and memcpy with its start, end, stream and
// grid, written as CSV at exit to $KERNEL_TRACE_OUT (default kernel_trace_<pid>.csv):
//   g++ -O2 -shared -fPIC -DKERNEL_T=CUpti_ActivityKernel<N> -DMEMSET_T=... -DMEMCPY_T=... \
//       -I$CUPTI/include kernel_trace.cpp -L$CUPTI/lib64 -lcupti -o libkernel_trace.so
//   CUDA_INJECTION64_PATH=$PWD/libkernel_trace.so gigacheck run ...
// (kernel_trace.sh picks the newest record structs of the installed CUPTI and builds it.)
// Issue 9: where an online FQ = 1 run spends the time its two column blocks' GEMMs do not.
#include <cupti.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <mutex>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

struct Row {
    char kind;  // K kernel, S memset, C memcpy
    uint64_t start, end;
    uint32_t stream;
    int grid, block, regs, smem;  // smem: static + dynamic shared memory per block, bytes
    std::string name;
    uint32_t corr = 0;  // correlation id: a kernel's launch call (R row) has the same
};

std::mutex rowsMutex;
std::vector<Row>* rows = nullptr;

#define CUPTI_OK(call)                                                                   \
    do {                                                                                 \
        CUptiResult r = (call);                                                          \
        if (r != CUPTI_SUCCESS) {                                                        \
            const char* s = nullptr;                                                     \
            cuptiGetResultString(r, &s);                                                 \
            std::fprintf(stderr, "kernel_trace: %s failed: %s\n", #call, s ? s : "?");   \
        }                                                                                \
    } while (0)

std::string shortName(const char* mangled)
{
    if (!mangled) return "?";
    int status = 0;
    char* d = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    std::string s = (status == 0 && d) ? d : mangled;
    std::free(d);
    if (s.size() > 90) s.resize(90);
    for (char& c : s)
        if (c == ',') c = ';';
    return s;
}

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxRecords)
{
    *size = 16 << 20;
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
    *maxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid)
{
    std::vector<Row> got;
    CUpti_Activity* rec = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            auto* k = reinterpret_cast<KERNEL_T*>(rec);
            got.push_back({'K', k->start, k->end, k->streamId, int(k->gridX * k->gridY * k->gridZ),
                           int(k->blockX * k->blockY * k->blockZ), int(k->registersPerThread),
                           int(k->staticSharedMemory + k->dynamicSharedMemory), shortName(k->name), k->correlationId});
        } else if (rec->kind == CUPTI_ACTIVITY_KIND_RUNTIME || rec->kind == CUPTI_ACTIVITY_KIND_DRIVER) {
            // Host calls (KERNEL_TRACE_API=1), on the same clock as the device records: where the host
            // spends the time between two launches. Stream column: the calling thread.
            auto* a = reinterpret_cast<CUpti_ActivityAPI*>(rec);
            const char* name = nullptr;
            cuptiGetCallbackName(rec->kind == CUPTI_ACTIVITY_KIND_RUNTIME ? CUPTI_CB_DOMAIN_RUNTIME_API
                                                                          : CUPTI_CB_DOMAIN_DRIVER_API,
                                 a->cbid, &name);
            got.push_back({rec->kind == CUPTI_ACTIVITY_KIND_RUNTIME ? 'R' : 'D', a->start, a->end,
                           uint32_t(a->threadId), 0, 0, 0, 0, name ? name : "?", a->correlationId});
        } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
            auto* m = reinterpret_cast<MEMSET_T*>(rec);
            got.push_back({'S', m->start, m->end, m->streamId, 0, 0, 0, 0, "memset " + std::to_string(m->bytes),
                           m->correlationId});
        } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            auto* m = reinterpret_cast<MEMCPY_T*>(rec);
            got.push_back({'C', m->start, m->end, m->streamId, 0, 0, int(m->copyKind), 0,
                           "memcpy " + std::to_string(m->bytes), m->correlationId});
        }
    }
    std::free(buffer);
    std::lock_guard<std::mutex> lock(rowsMutex);
    rows->insert(rows->end(), got.begin(), got.end());
}

void writeRows()
{
    cuptiActivityFlushAll(1);
    const char* env = std::getenv("KERNEL_TRACE_OUT");
    std::string path = env ? env : "kernel_trace_" + std::to_string(getpid()) + ".csv";
    if (env && std::strstr(env, "%p")) {
        path = env;
        path.replace(path.find("%p"), 2, std::to_string(getpid()));
    }
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return;
    std::fprintf(f, "kind,start_ns,end_ns,stream,grid,block,regs_or_copykind,smem,corr,name\n");
    std::lock_guard<std::mutex> lock(rowsMutex);
    for (const Row& r : *rows)
        std::fprintf(f, "%c,%llu,%llu,%u,%d,%d,%d,%d,%u,%s\n", r.kind, static_cast<unsigned long long>(r.start),
                     static_cast<unsigned long long>(r.end), r.stream, r.grid, r.block, r.regs, r.smem, r.corr,
                     r.name.c_str());
    std::fclose(f);
    std::fprintf(stderr, "kernel_trace: %zu records -> %s\n", rows->size(), path.c_str());
}

}  // namespace

extern "C" int InitializeInjection(void)
{
    rows = new std::vector<Row>();
    CUPTI_OK(cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted));
    CUPTI_OK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    CUPTI_OK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET));
    CUPTI_OK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY));
    if (const char* api = std::getenv("KERNEL_TRACE_API"); api && api[0] == '1') {
        CUPTI_OK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME));
        CUPTI_OK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER));
    }
    std::atexit(writeRows);
    return 1;
}
