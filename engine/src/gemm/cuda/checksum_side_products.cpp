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

// One column-major BF16 product into FP32 with the algorithm kept for it.
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
void findAlgorithm(cublasLtHandle_t h, SideProduct& p, int rows, int cols, int depth, int lda, int ldb, int freeSms)
{
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&p.a, CUDA_R_16BF, rows, depth, lda));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&p.b, CUDA_R_16BF, depth, cols, ldb));
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

using Key = std::tuple<int, Index, Index, Index, Index, Index, int>;

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
    std::unique_ptr<SidePair>& pair = gPairs[Key{device, x.m, x.n, x.q, x.lda, x.ldb, freeSms}];
    if (!pair) {
        pair = std::make_unique<SidePair>();
        const int m = int(x.m), n = int(x.n), q = int(x.q), parts = int(kChecksumPartsOf16Bit);
        findAlgorithm(h, pair->row, q, parts, n, int(x.ldb), n, freeSms);
        findAlgorithm(h, pair->column, parts, m, n, parts, int(x.lda), freeSms);
    }
    return {h, pair.get()};
}

// cuBLASLt's offers assume 256-byte aligned matrices (its default): every operand and output here.
bool shapeFits(const SideChecksumProducts16& x)
{
    const Index limit = Index(1) << 31;
    const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 256 == 0; };
    const auto* p = static_cast<const unsigned short*>(x.checksumParts);
    return x.m > 0 && x.n > 0 && x.q > 0 && x.m < limit && x.n < limit && x.q < limit && x.lda < limit &&
           x.ldb < limit && x.lda % 8 == 0 && x.ldb % 8 == 0 && x.c && aligned(x.a16) && aligned(x.b16) &&
           aligned(p) && aligned(x.parts);
}

}  // namespace

bool sideChecksumProductsRun(const SideChecksumProducts16& x, int freeSms)
{
    if (freeSms <= 0 || !shapeFits(x))
        return false;
    const SidePair* pair = pairFor(x, freeSms).second;
    return pair->row.found && pair->column.found;
}

void sideChecksumProducts16(const SideChecksumProducts16& x, int freeSms, cudaStream_t s)
{
    if (!sideChecksumProductsRun(x, freeSms))
        throw BackendError("checksum side products: cuBLASLt offers no algorithm for this shape");
    const auto [h, pair] = pairFor(x, freeSms);
    const auto* p = static_cast<const unsigned short*>(x.checksumParts);  // c_A's parts (8 x n)
    const unsigned short* r = p + rBPartsOffset(x.n);                         // r_B's parts (n x 8)
    float* rowParts = x.parts;
    float* columnParts = x.parts + columnPartsOffset(x.q);
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasLtMatmul(h, pair->row.desc, &one, x.b16, pair->row.a, p, pair->row.b, &zero, rowParts,
                                pair->row.d, rowParts, pair->row.d, &pair->row.algo, nullptr, 0, s));
    CUBLAS_CHECK(cublasLtMatmul(h, pair->column.desc, &one, r, pair->column.a, x.a16, pair->column.b, &zero,
                                columnParts, pair->column.d, columnParts, pair->column.d, &pair->column.algo, nullptr,
                                0, s));
    checksumsFromParts16(x.parts, x.c, x.ldc, x.m, x.q, s);
}

}  // namespace gigacheck::cuda
