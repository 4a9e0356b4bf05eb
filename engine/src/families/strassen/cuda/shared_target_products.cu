// Atomics against ordering for the products of one msmes stage (bench/shared_target_products.hpp).
#include "families/strassen/bench/shared_target_products.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/resources.hpp"
#include "core/median.hpp"
#include "families/strassen/cuda/index_hash.cuh"
#include "families/strassen/cuda/multi_target_gemm.hpp"
#include "families/strassen/recipe.hpp"

#include <algorithm>
#include <memory>

namespace gigacheck::strassen {

namespace {

enum class Way { Serial, Ordered, Atomic, Racy };

// Small integers (-2..2): every product and every order of the sums is exact in FP32 and FP64.
template <class T> __global__ void fillSmallIntegers(T* p, std::size_t count, unsigned seed)
{
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += std::size_t(gridDim.x) * blockDim.x) {
        p[i] = T(int(indexHash(i, seed) % 5u) - 2);
    }
}

template <class T> __global__ void countDifferent(const T* x, const T* y, std::size_t count, unsigned long long* out)
{
    unsigned long long mine = 0;
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += std::size_t(gridDim.x) * blockDim.x)
        mine += x[i] != y[i];
    if (mine)
        atomicAdd(out, mine);
}

// The ordered way's rounds: each product joins the first round whose products reach none of its
// blocks (stage 2 of msmes: {M1, M4}, {M2, M3}; stage 5: {M0}, {M5, M6}).
std::vector<std::vector<const Step*>> roundsOf(const std::vector<const Step*>& products)
{
    std::vector<std::vector<const Step*>> rounds;
    const auto clash = [](const Step* x, const Step* y) {
        for (const Target& a : x->targets)
            for (const Target& b : y->targets)
                if (a.block == b.block)
                    return true;
        return false;
    };
    for (const Step* p : products) {
        auto r = std::find_if(rounds.begin(), rounds.end(), [&](const std::vector<const Step*>& round) {
            return std::none_of(round.begin(), round.end(), [&](const Step* q) { return clash(p, q); });
        });
        if (r == rounds.end())
            rounds.push_back({p});
        else
            r->push_back(p);
    }
    return rounds;
}

template <class T>
SharedTargetTiming measureStage(int stage, const std::vector<const Step*>& products, std::int64_t n, int repetitions)
{
    const std::int64_t h = n / 2;
    const std::size_t count = std::size_t(n) * std::size_t(n), bytes = count * sizeof(T);
    cuda::DeviceBuffer a(bytes), b(bytes), c(bytes), reference(bytes), wrong(sizeof(unsigned long long));
    fillSmallIntegers<T><<<1024, 256>>>(a.as<T>(), count, 11u);
    fillSmallIntegers<T><<<1024, 256>>>(b.as<T>(), count, 23u);
    CUDA_CHECK(cudaGetLastError());
    const auto block = [&](const cuda::DeviceBuffer& m, int i) {
        return m.as<T>() + std::size_t(i / 2) * std::size_t(h) * std::size_t(n) + std::size_t(i % 2) * std::size_t(h);
    };
    const auto launch = [&](const Step& p, cudaStream_t s, device::Epilogue e) {
        device::Targets<T> t;
        for (const Target& x : p.targets) {
            t.c[t.count] = block(c, x.block);
            t.ldc[t.count] = n;
            t.sign[t.count] = T(x.sign);
            ++t.count;
        }
        device::launchMultiTargetGemm<T>(h, h, h, block(a, p.a), n, block(b, p.b), n, t, s, e);
    };

    cuda::Stream master;
    std::vector<std::unique_ptr<cuda::Stream>> streams;
    std::vector<std::unique_ptr<cuda::Event>> done;
    for (std::size_t i = 0; i < products.size(); ++i) {
        streams.push_back(std::make_unique<cuda::Stream>());
        done.push_back(std::make_unique<cuda::Event>(cudaEventDisableTiming));
    }
    cuda::Event start, stop, fork(cudaEventDisableTiming);
    const auto rounds = roundsOf(products);
    // Products of `group`, each on its own stream, after everything issued on master so far;
    // master then waits for all of them.
    const auto concurrently = [&](const std::vector<const Step*>& group, device::Epilogue e) {
        CUDA_CHECK(cudaEventRecord(fork.get(), master.get()));
        for (std::size_t i = 0; i < group.size(); ++i) {
            CUDA_CHECK(cudaStreamWaitEvent(streams[i]->get(), fork.get(), 0));
            launch(*group[i], streams[i]->get(), e);
            CUDA_CHECK(cudaEventRecord(done[i]->get(), streams[i]->get()));
        }
        for (std::size_t i = 0; i < group.size(); ++i)
            CUDA_CHECK(cudaStreamWaitEvent(master.get(), done[i]->get(), 0));
    };
    const auto once = [&](Way way) {
        CUDA_CHECK(cudaMemsetAsync(c.get(), 0, bytes, master.get()));
        CUDA_CHECK(cudaEventRecord(start.get(), master.get()));
        switch (way) {
        case Way::Serial:
            for (const Step* p : products)
                launch(*p, master.get(), device::Epilogue::ReadModifyWrite);
            break;
        case Way::Ordered:
            for (const auto& round : rounds)
                concurrently(round, device::Epilogue::ReadModifyWrite);
            break;
        case Way::Atomic: concurrently(products, device::Epilogue::Atomic); break;
        case Way::Racy: concurrently(products, device::Epilogue::ReadModifyWrite); break;
        }
        CUDA_CHECK(cudaEventRecord(stop.get(), master.get()));
        CUDA_CHECK(cudaEventSynchronize(stop.get()));
        return cuda::elapsedMs(start.get(), stop.get()) * 1e-3;
    };
    const auto timed = [&](Way way) {
        once(way);  // untimed: loads the kernel, settles the clocks
        std::vector<double> t;
        for (int r = 0; r < std::max(1, repetitions); ++r)
            t.push_back(once(way));
        return median(t);
    };
    const auto differing = [&] {
        CUDA_CHECK(cudaMemsetAsync(wrong.get(), 0, sizeof(unsigned long long), master.get()));
        countDifferent<T><<<1024, 256, 0, master.get()>>>(c.as<T>(), reference.as<T>(), count,
                                                         wrong.as<unsigned long long>());
        CUDA_CHECK(cudaGetLastError());
        unsigned long long out = 0;
        CUDA_CHECK(cudaMemcpyAsync(&out, wrong.get(), sizeof out, cudaMemcpyDeviceToHost, master.get()));
        CUDA_CHECK(cudaStreamSynchronize(master.get()));
        return std::int64_t(out);
    };

    SharedTargetTiming t;
    t.n = n;
    t.precision = sizeof(T) == 8 ? Precision::F64 : Precision::F32;
    t.stage = stage;
    t.products = int(products.size());
    t.rounds = int(rounds.size());
    t.serialSeconds = timed(Way::Serial);
    CUDA_CHECK(cudaMemcpyAsync(reference.get(), c.get(), bytes, cudaMemcpyDeviceToDevice, master.get()));
    t.orderedSeconds = timed(Way::Ordered);
    t.orderedExact = differing() == 0;
    t.atomicSeconds = timed(Way::Atomic);
    t.atomicExact = differing() == 0;
    t.racySeconds = timed(Way::Racy);
    t.racyWrongCells = differing();
    return t;
}

}  // namespace

std::vector<SharedTargetTiming> measureSharedTargetProducts(int device, std::int64_t n, Precision precision,
                                                            int repetitions)
{
    if (n < 2 || n % 8 != 0)
        throw BackendError("measureSharedTargetProducts: n must be a positive multiple of 8, got " + std::to_string(n));
    CUDA_CHECK(cudaSetDevice(std::max(device, 0)));
    std::vector<SharedTargetTiming> out;
    for (int stage : {2, 5}) {
        std::vector<const Step*> products;
        for (const Step& s : recipeOf(StrassenVariant::Msmes).steps)
            if (s.kind == Step::Kind::Product && s.stage == stage)
                products.push_back(&s);
        out.push_back(precision == Precision::F64 ? measureStage<double>(stage, products, n, repetitions)
                                                  : measureStage<float>(stage, products, n, repetitions));
    }
    return out;
}

}  // namespace gigacheck::strassen
