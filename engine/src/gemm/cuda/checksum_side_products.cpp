// See checksum_side_products.hpp. Row-major products as column-major cuBLASLt ones (as gemm.cu):
//   row parts (8 x q)  = P (8 x n) B (n x q)   ->  column-major q x 8 = B^T P^T: cuBLASLt's A is B
//                                                  (q x n, ldb), its B is P (n x 8, ld n);
//   column parts (m x 8) = A (m x n) R (n x 8) ->  column-major 8 x m = R^T A^T: its A is R (8 x n,
//                                                  ld 8), its B is A (n x m, lda).
#include "gemm/cuda/checksum_side_products.hpp"

#include "abft/cuda/prepared_operands.hpp"
#include "core/cuda/check.hpp"

#include <cublasLt.h>

#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace gigacheck::cuda {

namespace {

using Index = std::int64_t;

// One column-major 16-bit product into FP32 with the algorithm kept for it.
struct SideProduct {
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, d = nullptr;
    cublasLtMatmulAlgo_t algo{};
    bool found = false;
    ~SideProduct()
    {
        for (cublasLtMatrixLayout_t l : {a, b, d})
            if (l)
                cublasLtMatrixLayoutDestroy(l);
        if (desc)
            cublasLtMatmulDescDestroy(desc);
    }
};

struct SidePair {
    SideProduct row, column;
};

// cuBLASLt's first offer (no workspace) that checks out with its cluster set to 1 x 1 x 1 -- a kernel
// with a cluster needs free SMs side by side, and the GEMM's CTAs leave single ones (with a cluster
// they waited for the GEMM's end in side_products_probe.cu): among the offers for `freeSms` SMs, and
// if none (as at 8192 on an H100), among those for the whole GPU.
void findAlgorithm(cublasLtHandle_t h, SideProduct& p, cudaDataType_t type, int rows, int cols, int depth, int lda,
                   int ldb, int freeSms)
{
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&p.a, type, rows, depth, lda));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&p.b, type, depth, cols, ldb));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&p.d, CUDA_R_32F, rows, cols, rows));
    for (const int target : {freeSms, 0}) {
        if (p.found)
            break;
        if (p.desc)
            cublasLtMatmulDescDestroy(p.desc);
        p.desc = nullptr;
        CUBLAS_CHECK(cublasLtMatmulDescCreate(&p.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
        if (target > 0)
            CUBLAS_CHECK(
                cublasLtMatmulDescSetAttribute(p.desc, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, &target, sizeof(target)));
        cublasLtMatmulPreference_t pref = nullptr;
        CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
        const std::size_t noWorkspace = 0;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &noWorkspace,
                                             sizeof(noWorkspace));
        cublasLtMatmulHeuristicResult_t offers[8] = {};
        int count = 0;
        const cublasStatus_t st =
            cublasLtMatmulAlgoGetHeuristic(h, p.desc, p.a, p.b, p.d, p.d, pref, 8, offers, &count);
        cublasLtMatmulPreferenceDestroy(pref);
        if (st != CUBLAS_STATUS_SUCCESS)
            continue;
        const uint16_t single = CUBLASLT_CLUSTER_SHAPE_1x1x1;
        for (int i = 0; i < count && !p.found; ++i) {
            cublasLtMatmulAlgo_t algo = offers[i].algo;
            if (cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, &single,
                                                     sizeof(single)) != CUBLAS_STATUS_SUCCESS)
                continue;
            cublasLtMatmulHeuristicResult_t check{};
            if (cublasLtMatmulAlgoCheck(h, p.desc, p.a, p.b, p.d, p.d, &algo, &check) == CUBLAS_STATUS_SUCCESS &&
                check.workspaceSize == 0) {
                p.algo = algo;
                p.found = true;
            }
        }
    }
}

using Key = std::tuple<int, InputFormat, Index, Index, Index, Index, Index, int>;

std::mutex gMutex;
std::map<int, cublasLtHandle_t> gHandles;  // one per device, kept for the process
std::map<Key, std::unique_ptr<SidePair>> gPairs;

// The handle and the pair for x on the current device (looked up once).
std::pair<cublasLtHandle_t, SidePair*> pairFor(const SideChecksumProducts16& x, int freeSms)
{
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    std::lock_guard lock(gMutex);
    cublasLtHandle_t& h = gHandles[device];
    if (!h)
        CUBLAS_CHECK(cublasLtCreate(&h));
    std::unique_ptr<SidePair>& pair = gPairs[Key{device, x.format, x.m, x.n, x.q, x.lda, x.ldb, freeSms}];
    if (!pair) {
        pair = std::make_unique<SidePair>();
        const int m = int(x.m), n = int(x.n), q = int(x.q), parts = int(kChecksumPartsOf16Bit);
        const cudaDataType_t type = x.format == InputFormat::F16 ? CUDA_R_16F : CUDA_R_16BF;
        findAlgorithm(h, pair->row, type, q, parts, n, int(x.ldb), n, freeSms);
        findAlgorithm(h, pair->column, type, parts, m, n, parts, int(x.lda), freeSms);
    }
    return {h, pair.get()};
}

// cuBLASLt's offers assume 256-byte aligned matrices (its default): every operand and output here.
bool shapeFits(const SideChecksumProducts16& x)
{
    const Index limit = Index(1) << 31;
    const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 256 == 0; };
    const auto* p = static_cast<const unsigned short*>(x.checksumParts);
    return (x.format == InputFormat::Bf16 || x.format == InputFormat::F16) && x.m > 0 && x.n > 0 && x.q > 0 &&
           x.m < limit && x.n < limit && x.q < limit && x.lda < limit && x.ldb < limit && x.lda % 8 == 0 &&
           x.ldb % 8 == 0 && x.c && aligned(x.a16) && aligned(x.b16) && aligned(p) && aligned(x.parts);
}

// The two products and the cells from their parts, on s.
void launchProducts(cublasLtHandle_t h, const SidePair& pair, const SideChecksumProducts16& x, cudaStream_t s)
{
    const auto* p = static_cast<const unsigned short*>(x.checksumParts);  // c_A's parts (8 x n)
    const unsigned short* r = p + rBPartsOffset(x.n);                         // r_B's parts (n x 8)
    float* rowParts = x.parts;
    float* columnParts = x.parts + columnPartsOffset(x.q);
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasLtMatmul(h, pair.row.desc, &one, x.b16, pair.row.a, p, pair.row.b, &zero, rowParts,
                                pair.row.d, rowParts, pair.row.d, &pair.row.algo, nullptr, 0, s));
    CUBLAS_CHECK(cublasLtMatmul(h, pair.column.desc, &one, r, pair.column.a, x.a16, pair.column.b, &zero,
                                columnParts, pair.column.d, columnParts, pair.column.d, &pair.column.algo, nullptr,
                                0, s));
    checksumsFromParts16(x.parts, reinterpret_cast<const double*>(p + partScalesOffset(x.n)), x.c, x.ldc, x.m, x.q, s);
}

// The products captured on a stream of s's priority (a graph's kernels run at the priority of the
// stream it is launched on); null where capture or instantiation fails.
cudaGraphExec_t captured(cublasLtHandle_t h, const SidePair& pair, const SideChecksumProducts16& x, cudaStream_t s)
{
    int priority = 0;
    CUDA_CHECK(cudaStreamGetPriority(s, &priority));
    cudaStream_t capture = nullptr;
    CUDA_CHECK(cudaStreamCreateWithPriority(&capture, cudaStreamNonBlocking, priority));
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    if (cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal) == cudaSuccess) {
        bool ok = true;
        try {
            launchProducts(h, pair, x, capture);
        } catch (const BackendError&) {
            ok = false;
        }
        ok = cudaStreamEndCapture(capture, &graph) == cudaSuccess && ok;
        if (ok && graph && cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess)
            exec = nullptr;
    }
    if (graph)
        cudaGraphDestroy(graph);
    cudaStreamDestroy(capture);
    (void)cudaGetLastError();  // a refused capture leaves its error here
    return exec;
}

}  // namespace

struct SideChecksumProducts16Launch {
    SideChecksumProducts16 x;
    cublasLtHandle_t h = nullptr;
    const SidePair* pair = nullptr;
    std::mutex captureMutex;
    cudaGraphExec_t exec = nullptr;
    bool captureFailed = false;  // capture refused: the products stay direct calls
    ~SideChecksumProducts16Launch()
    {
        if (exec)
            cudaGraphExecDestroy(exec);  // one still running is freed when it ends
    }
};

namespace {

using LaunchKey = std::tuple<int, InputFormat, const void*, const void*, const void*, const float*, const float*,
                             Index, Index, Index, Index, Index, Index, int>;
std::map<LaunchKey, std::shared_ptr<SideChecksumProducts16Launch>> gLaunches;
constexpr std::size_t kLaunchesKept = 64;  // a process multiplies few sets of buffers

}  // namespace

std::shared_ptr<SideChecksumProducts16Launch> sideChecksumProducts16For(const SideChecksumProducts16& x, int freeSms)
{
    if (freeSms <= 0 || !shapeFits(x))
        return nullptr;
    const auto [h, pair] = pairFor(x, freeSms);
    if (!pair->row.found || !pair->column.found)
        return nullptr;
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    const LaunchKey key{device, x.format, x.a16, x.b16, x.checksumParts, x.parts, x.c,
                        x.lda, x.ldb, x.ldc, x.m, x.n, x.q, freeSms};
    std::lock_guard lock(gMutex);
    if (gLaunches.size() >= kLaunchesKept && !gLaunches.count(key))
        gLaunches.clear();  // a launch in use keeps its own (shared) copy
    std::shared_ptr<SideChecksumProducts16Launch>& launch = gLaunches[key];
    if (!launch) {
        launch = std::make_shared<SideChecksumProducts16Launch>();
        launch->x = x;
        launch->h = h;
        launch->pair = pair;
    }
    return launch;
}

void launchSideChecksumProducts16(SideChecksumProducts16Launch& p, cudaStream_t s)
{
    std::lock_guard lock(p.captureMutex);
    if (p.exec) {
        CUDA_CHECK(cudaGraphLaunch(p.exec, s));
        return;
    }
    // The first launch calls cuBLASLt directly (it loads its kernels), then keeps the calls as a graph.
    launchProducts(p.h, *p.pair, p.x, s);
    if (!p.captureFailed) {
        p.exec = captured(p.h, *p.pair, p.x, s);
        p.captureFailed = p.exec == nullptr;
    }
}

}  // namespace gigacheck::cuda
