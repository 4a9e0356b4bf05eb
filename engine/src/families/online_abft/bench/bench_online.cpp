// `gigacheck bench online`: the comparisons of the online-ABFT paper (its Tables I-III) on this machine, each a
// ratio against the plain product timed in the same process (cuBLAS on a GPU, OpenBLAS on the
// CPU): online ABFT for several fq and error counts, offline ABFT (with the recompute when it finds
// more than it can correct), TMR; the cost model of the checks beside the measurements; the
// detection latency; and the fq sweep of overhead against faults that end correctable.
#include "core/bench_filter.hpp"
#include "core/bench_stamp.hpp"
#include "gigacheck/bench.hpp"
#include "gigacheck/online_abft.hpp"
#include "gigacheck/version.hpp"

#include "core/median.hpp"
#include "core/table.hpp"
#include "families/online_abft/bench/tf32_rows.hpp"
#include "families/online_abft/ops.hpp"
#include "families/online_abft/run/run_online.hpp"
#include "families/online_abft/sweep/fq_sweep.hpp"

#include "gigacheck/safe_write.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <tuple>
#include <utility>

namespace gigacheck {

namespace {

using bench::fixed;
using bench::percent;
using bench::Table;
using nlohmann::json;

// Seed 002, Tables I-III (NVIDIA Tesla S1070 system: Quadro FX 5600 GPUs, CUBLAS 3.1, FP32; the
// online technique tolerating two errors, "only C"). Times in ms.
struct SeedRow {
    int n;
    double online, cublas, tmr, traditional;
};
constexpr SeedRow kSeedRows[] = {
    {1024, 25, 20, 60, 45},         {2048, 115, 95, 280, 195},      {3072, 285, 250, 730, 515},
    {4096, 595, 530, 1560, 1090},   {5120, 1095, 950, 2830, 1978},  {6144, 1820, 1550, 4610, 3249},
    {7168, 2770, 2380, 7020, 4969}, {8192, 4060, 3420, 10220, 7145}, {9216, 5650, 4300, 12550, 9096},
    {10240, 7590, 5820, 17400, 12337},
};
constexpr const char* kSeedGpu = "Tesla S1070 (Quadro FX 5600), CUBLAS 3.1";

double kindSeconds(const OnlineRecord& r, OpKind kind)
{
    double t = 0;
    for (const Span& s : r.spans)
        if (s.kind == kind)
            t += s.end - s.start;
    return t;
}

using online_abft::computeSeconds;

// Where a column-block run loses time outright (README "C in two buffers, measured"): each block's
// first product start and last compute end against the run's, and the mean check span.
std::string blockTimingText(const OnlineRecord& r)
{
    const int blocks = std::max(1, r.columnBlocks);
    std::vector<double> start(std::size_t(blocks), 1e300), end(std::size_t(blocks), 0);
    double first = 1e300, last = 0, checks = 0;
    int checkCount = 0;
    for (const Span& s : r.spans) {
        if (s.queue != Queue::Compute || s.stream < 0 || s.stream >= blocks)
            continue;
        first = std::min(first, s.start);
        last = std::max(last, s.end);
        if (s.kind == online_abft::kPanelProduct)
            start[std::size_t(s.stream)] = std::min(start[std::size_t(s.stream)], s.start);
        end[std::size_t(s.stream)] = std::max(end[std::size_t(s.stream)], s.end);
        if (s.kind == online_abft::kCheck) {
            checks += s.end - s.start;
            ++checkCount;
        }
    }
    std::string starts, ends;
    for (int b = 0; b < blocks; ++b) {
        starts += (b ? " / " : "") + fixed((start[std::size_t(b)] - first) * 1e3, 2);
        ends += (b ? " / " : "") + fixed((last - end[std::size_t(b)]) * 1e3, 2);
    }
    return "first product after the first compute op (ms, per block): " + starts +
           "; compute done before the run's end (ms): " + ends + "; a check's span on average " +
           fixed(checkCount ? checks / checkCount * 1e3 : 0.0, 3) + " ms";
}

double plainSeconds(BackendKind backend, std::int64_t n, int reps)
{
    return online_abft::plainProductSeconds(backend, n, reps);
}

struct Bench {
    Backend& backend;
    HostMatrix a, b, c;
    int reps;

    OnlineRecord once(const OnlineConfig& config)
    {
        RunHooks hooks;
        hooks.backend = &backend;
        return online_abft::runOnlineOn(config, hooks, a, b, c);
    }
    // The run with the median compute time of reps, and the median of a plain product of the same
    // size timed before each of them: a row's ratio is against the plain products of its own
    // minute, so the device's drift over the bench (clocks, temperature) stays out of the ratios
    // (one plain product at the start moved them by up to 1 point between processes on an H200).
    struct Timed {
        OnlineRecord record;
        double plain = 0;
        double seconds() const { return computeSeconds(record); }
    };
    Timed median(const OnlineConfig& config)
    {
        std::vector<OnlineRecord> runs;
        std::vector<double> plains;
        for (int r = 0; r < reps; ++r) {
            plains.push_back(plainSeconds(backend.device().backend, config.shape.m, 1));
            runs.push_back(once(config));
        }
        std::sort(runs.begin(), runs.end(),
                  [](const OnlineRecord& x, const OnlineRecord& y) { return computeSeconds(x) < computeSeconds(y); });
        std::sort(plains.begin(), plains.end());
        return {runs[runs.size() / 2], plains[plains.size() / 2]};
    }
};

OnlineConfig baseConfig(std::int64_t n, std::int64_t panel, BackendKind backend)
{
    OnlineConfig c;
    c.shape = {n, n, n};
    c.backend = backend;
    c.panel = panel;
    c.reference = ReferenceMode::None;  // correctness: the tests and `gigacheck run`; here: time
    return c;
}

// Faults spread over the steps: fault e after step e * steps / count, each in its own row and column.
std::vector<OnlineFault> scatteredFaults(int count, int steps, std::int64_t n)
{
    std::vector<OnlineFault> out;
    for (int e = 0; e < count; ++e) {
        OnlineFault f;
        f.row = (n / 7 + e * (n / 3)) % n;
        f.col = (n / 5 + e * (n / 4)) % n;
        f.step = count > 1 ? std::min(steps - 1, e * steps / count) : steps / 2;
        out.push_back(f);
    }
    return out;
}

std::string verdictSummary(const OnlineRecord& r)
{
    int corrected = 0, uncorrectable = 0;
    for (const VerifyEvent& e : r.verifications) {
        corrected += e.result.verdict == Verdict::Corrected;
        uncorrectable += e.result.verdict == Verdict::Uncorrectable;
    }
    if (r.vote)
        return std::to_string(r.vote->cellsOutvoted) + " outvoted, " + std::to_string(r.vote->cellsWithoutMajority) +
               " no majority";
    std::string s = std::to_string(r.verifications.size()) + (r.verifications.size() == 1 ? " check, " : " checks, ") +
                    std::to_string(corrected) + " corrected";
    if (uncorrectable)
        s += ", " + std::to_string(uncorrectable) + " uncorrectable";
    if (r.recomputed)
        s += std::string(", recomputed ") + (r.recomputeClean ? "clean" : "NOT clean");
    return s;
}

json timingSuite(Bench& bench, std::int64_t n, std::int64_t panel, double plain, double bandwidthGBs, std::ostream& out)
{
    json rows = json::array();
    const BackendKind kind = bench.backend.device().backend;
    const int steps = baseConfig(n, panel, kind).steps();
    out << "\nN = " << n << " (FP32, " << n << "^3), panel width b = " << panel << ", " << steps
        << " steps; plain " << (kind == BackendKind::Cuda ? "cuBLAS" : "OpenBLAS") << ": " << fixed(plain * 1e3, 2)
        << " ms (each row: against a plain product timed before each of its runs, median)\n";
    // The panel products run the cuBLASLt configuration tuned for their shape (gemm_tuning.hpp):
    // the full product with the fastest configuration for n^3 is the second, stricter reference.
    std::string tunedKept;
    const double tunedPlain = online_abft::tunedPlainProductSeconds(kind, n, 5, &tunedKept);
    if (tunedPlain > 0)
        out << "the same product with the fastest cuBLASLt configuration for " << n << "^3 (" << tunedKept
            << "): " << fixed(tunedPlain * 1e3, 2) << " ms (column \"vs tuned\")\n";
    Table t({"scheme", "fq", "faults", "blocks", "GEMMs", "time ms", "vs plain", "overhead", "vs tuned", "checks ms (model)",
             "outcome"});
    std::string panelGemm;
    double onlineFq1 = 0, onlineFq1Plain = 0;
    std::string fq1Blocks;
    double panelsAlone = 0, panelsAlonePlain = 0;
    const auto add = [&](const std::string& scheme, int fq, int faults, const Bench::Timed& timed) {
        const OnlineRecord& r = timed.record;
        const double time = timed.seconds(), rowPlain = timed.plain;
        // Busy time of the checks (with column blocks, the blocks' checks overlap each other and the
        // other block's GEMM: their sum is work, not added time).
        const double checks = kindSeconds(r, online_abft::kCheck);
        // A check reads C once: (n + 1) (n + G) * 4 bytes at the device bandwidth per checked step.
        const double model = bandwidthGBs > 0 ? double(r.checkSteps.size()) * double(n + 1) *
                                                    double(n + r.columnBlocks) * 4.0 / (bandwidthGBs * 1e9)
                                              : 0.0;
        t.add({scheme, scheme == "tmr" ? "-" : scheme == "offline" ? "end" : std::to_string(fq), std::to_string(faults),
               scheme == "tmr" ? "-" : std::to_string(r.columnBlocks),
               scheme == "tmr" ? "3" : std::to_string(r.panelProducts) + (r.mergedSteps ? "" : " (each step)"),
               fixed(time * 1e3, 2),
               fixed(time / rowPlain, 3) + "x", percent(time / rowPlain - 1.0),
               tunedPlain > 0 ? percent(time / tunedPlain - 1.0) : "-", fixed(checks * 1e3, 2) + (model > 0 ? " (" + fixed(model * 1e3, 2) + ")" : ""), verdictSummary(r)});
        rows.push_back({{"n", n}, {"panel", panel}, {"scheme", scheme}, {"fq", fq}, {"faults", faults},
                        {"column_blocks", r.columnBlocks}, {"merged_steps", r.mergedSteps},
                        {"panel_products", r.panelProducts}, {"seconds", time}, {"plain_seconds", rowPlain},
                        {"ratio", time / rowPlain}, {"plain_tuned_seconds", tunedPlain}, {"panel_gemm", r.panelGemm},
                        {"check_seconds", checks}, {"check_model_seconds", model},
                        {"checks", r.verifications.size()}, {"recomputed", r.recomputed}, {"verified", r.status == "ok"}});
        return time;
    };
    for (int fq : {1, 2, 4, 8}) {
        for (int faults : {0, 1, 2}) {
            OnlineConfig c = baseConfig(n, panel, kind);
            c.checkEvery = fq;
            c.faults = scatteredFaults(faults, steps, n);
            const Bench::Timed r = bench.median(c);
            const double time = add("online", fq, faults, r);
            if (fq == 1 && faults == 1) {
                onlineFq1 = time;
                onlineFq1Plain = r.plain;
                fq1Blocks = blockTimingText(r.record);
                panelGemm = r.record.panelGemm;
            }
        }
    }
    // The floor of any check schedule around cuBLAS (README "The cost model"): the same panel
    // products, blocks and tuned configurations with no checksum pass and no check, each of its runs
    // paired with a plain product as the rows are. What a row costs above it is its ABFT.
    // And the same products with the check's sums of C after each step (one read of C per step and
    // nothing else of a check): the least a check beside cuBLAS can cost; online fq=1 above it is
    // what its checksum passes and decisions cost.
    std::vector<double> floors, floorsWithSums, plains, plainsWithSums;
    std::string gemms;
    const OnlineConfig floorConfig = baseConfig(n, panel, kind);
    {
        try {
            for (int r = 0; r < bench.reps; ++r) {
                plains.push_back(plainSeconds(kind, n, 1));
                floors.push_back(online_abft::panelProductsAloneSeconds(floorConfig, kind, &gemms));
                plainsWithSums.push_back(plainSeconds(kind, n, 1));
                floorsWithSums.push_back(online_abft::panelProductsAloneSeconds(floorConfig, kind, nullptr, true));
            }
        } catch (const BackendError& e) {  // its own copies of A, B and C did not fit: the rows stand
            out << "panel products alone: not measured (" << e.what() << ")\n";
            floors.clear();
        }
    }
    double panelsWithSums = 0, panelsWithSumsPlain = 0;
    const int floorBlocks = resolvedColumnBlocks(floorConfig, kind);
    if (!floors.empty()) {
        // name: the table's scheme column; scheme: the JSON's (scripts select rows by it).
        const auto floorRow = [&](const std::string& name, const std::string& scheme, const std::string& what,
                                  const std::vector<double>& times, const std::vector<double>& pairedPlains) {
            const double time = median(times), rowPlain = median(pairedPlains);
            t.add({name, "-", "-", std::to_string(floorBlocks), std::to_string(steps) + " (each step)",
                   fixed(time * 1e3, 2), fixed(time / rowPlain, 3) + "x", percent(time / rowPlain - 1.0),
                   tunedPlain > 0 ? percent(time / tunedPlain - 1.0) : "-", "-", what});
            rows.push_back({{"n", n}, {"panel", panel}, {"scheme", scheme}, {"column_blocks", floorBlocks},
                            {"panel_products", steps}, {"seconds", time}, {"plain_seconds", rowPlain},
                            {"ratio", time / rowPlain}, {"plain_tuned_seconds", tunedPlain}, {"panel_gemm", gemms}});
            return std::pair{time, rowPlain};
        };
        std::tie(panelsAlone, panelsAlonePlain) = floorRow("panels", "panel products alone",
                                                           "the products alone: no checksums, no checks (the floor)",
                                                           floors, plains);
        std::tie(panelsWithSums, panelsWithSumsPlain) =
            floorRow("panels+sums", "panel products + sums",
                     "and the check's sums of C after each step (the least a check costs)", floorsWithSums, plainsWithSums);
    }
    // The same with C as one block (one stream: each step's epilogue and check wait for each
    // other) and as four, where auto chose two: what the column blocks are worth.
    const int chosenBlocks = resolvedColumnBlocks(baseConfig(n, panel, kind), kind);
    if (chosenBlocks > 1) {
        for (int blocks : {1, 4}) {
            for (int fq : {1, 4}) {
                OnlineConfig c = baseConfig(n, panel, kind);
                c.checkEvery = fq;
                c.columnBlocks = blocks;
                c.faults = scatteredFaults(1, steps, n);
                add("online", fq, 1, bench.median(c));
            }
        }
    }
    // One GEMM per step where auto merged the steps between checks (README "Merged steps"): what
    // the merging is worth.
    if (resolvedMergeSteps(baseConfig(n, panel, kind), kind)) {
        for (int fq : {2, 4}) {
            OnlineConfig c = baseConfig(n, panel, kind);
            c.checkEvery = fq;
            c.mergeSteps = StepMerge::Off;
            c.faults = scatteredFaults(1, steps, n);
            add("online", fq, 1, bench.median(c));
        }
        OnlineConfig c = baseConfig(n, panel, kind);
        c.scheme = Scheme::Offline;
        c.checkEvery = 0;
        c.mergeSteps = StepMerge::Off;
        c.faults = scatteredFaults(1, steps, n);
        add("offline", 0, 1, bench.median(c));
    }
    double offlineTwo = 0, onlineTwo = 0;
    for (int faults : {0, 1, 2}) {
        OnlineConfig c = baseConfig(n, panel, kind);
        c.scheme = Scheme::Offline;
        c.checkEvery = 0;
        c.faults = scatteredFaults(faults, steps, n);  // 2 scattered: uncorrectable at the end -> recompute
        offlineTwo = add("offline", 0, faults, bench.median(c));
    }
    {
        OnlineConfig c = baseConfig(n, panel, kind);
        c.faults = scatteredFaults(2, steps, n);
        onlineTwo = bench.median(c).seconds();
    }
    double tmr = 0;
    for (int faults : {0, 1}) {
        OnlineConfig c = baseConfig(n, panel, kind);
        c.scheme = Scheme::Tmr;
        c.panel = 0;
        if (faults)
            c.faults = {OnlineFault{OnlineTarget::Result, 1, 2, std::nullopt, 1}};
        tmr = add("tmr", 0, faults, bench.median(c));
    }
    t.print(out);
    out << "cost model: a check reads C once, share = s F / (2 b fq BW) = 2 F / (b fq BW) for FP32 (F the GEMM "
           "rate, BW the device bandwidth)"
        << (bandwidthGBs > 0 ? "; BW = " + fixed(bandwidthGBs, 0) + " GB/s" : "; no stored device bandwidth: run "
                                                                               "`gigacheck devices --measure`")
        << "\n"
        << "checks ms: the checks' spans, summed; with column blocks on a GPU a check beside the other blocks' GEMMs "
           "sums C in few-register blocks that share the GEMM's SMs, so its span is mostly latency hidden behind "
           "that GEMM, not cost (online README, \"The check beside the other block's GEMM\")\n";
    if (onlineFq1 > 0)
        out << "TMR / online fq=1 (1 fault): " << fixed(tmr / onlineFq1, 2) << "x\n"
            << "online fq=1 (1 fault), the median run: " << fq1Blocks << "\n";
    if (!panelGemm.empty())
        out << "online fq=1 panel GEMMs: " << panelGemm << "\n";
    if (panelsAlone > 0 && onlineFq1Plain > 0)
        out << "the floor: the panel products alone take " << fixed(panelsAlone * 1e3, 2) << " ms, "
            << percent(panelsAlone / panelsAlonePlain - 1.0) << " over plain "
            << (kind == BackendKind::Cuda ? "cuBLAS" : "OpenBLAS") << " (" << percent(panelsAlone / plain - 1.0)
            << " over the heading's plain product); online fq=1 (1 fault) takes " << fixed(onlineFq1 * 1e3, 2) << " ms, "
            << percent(onlineFq1 / onlineFq1Plain - 1.0) << " (" << percent(onlineFq1 / plain - 1.0)
            << "): its checksum passes and checks add "
            << fixed((onlineFq1 - panelsAlone) * 1e3, 2) << " ms to the products (" << percent(onlineFq1 / panelsAlone - 1.0)
            << "), " << percent(onlineFq1 / onlineFq1Plain - panelsAlone / panelsAlonePlain)
            << " of the plain product against the rows' own plain products\n";
    if (panelsWithSums > 0 && onlineFq1Plain > 0)
        out << "the least a check costs: the products with the check's sums of C after each step take "
            << fixed(panelsWithSums * 1e3, 2) << " ms, " << percent(panelsWithSums / panelsWithSumsPlain - 1.0)
            << " over plain (" << percent(panelsWithSums / plain - 1.0) << " over the heading's): one read of C per step adds "
            << fixed((panelsWithSums - panelsAlone) * 1e3, 2) << " ms to the products (model "
            << (bandwidthGBs > 0 ? fixed(double(steps) * double(n + 1) * double(n + floorBlocks) * 4.0 / (bandwidthGBs * 1e9) * 1e3, 2)
                                 : std::string("-"))
            << " ms); online fq=1 "
            << (onlineFq1 >= panelsWithSums
                    ? "adds " + fixed((onlineFq1 - panelsWithSums) * 1e3, 2) + " ms more (its checksum passes and decisions)"
                    : "takes " + fixed((panelsWithSums - onlineFq1) * 1e3, 2) +
                          " ms less: its checksum passes and decisions cost nothing measurable above the read")
            << "\n";
    const SeedRow& seed = kSeedRows[7];  // N = 8192
    out << "ours beside the online-ABFT paper (its N = 8192 row, " << kSeedGpu << "): online fq=1 overhead "
        << percent(onlineFq1Plain > 0 ? onlineFq1 / onlineFq1Plain - 1.0 : 0.0) << " (paper " << percent(seed.online / seed.cublas - 1.0)
        << "), TMR / online " << fixed(tmr / onlineFq1, 2) << "x (paper " << fixed(seed.tmr / seed.online, 2)
        << "x), offline with 2 faults (recompute) / online with 2 faults " << fixed(offlineTwo / onlineTwo, 2)
        << "x (paper traditional ABFT " << fixed(seed.traditional / seed.online, 2) << "x)\n";
    rows.push_back({{"n", n}, {"tmr_over_online_fq1", onlineFq1 > 0 ? tmr / onlineFq1 : 0.0}});
    return rows;
}

// A fault after step j is caught by the first check at or after j.
json latencySuite(Bench& bench, std::int64_t n, std::int64_t panel, std::ostream& out)
{
    json rows = json::array();
    const BackendKind kind = bench.backend.device().backend;
    const int steps = baseConfig(n, panel, kind).steps();
    out << "\nDetection latency, N = " << n << ", b = " << panel << " (" << steps << " steps): a fault after step j\n";
    Table t({"fq", "fault after step", "caught at step", "steps later", "ms later", "outcome"});
    for (int fq : {1, 2, 4, 8, 0}) {
        for (int j : {0, steps / 2, steps - 1}) {
            OnlineConfig c = baseConfig(n, panel, kind);
            c.scheme = fq == 0 ? Scheme::Offline : Scheme::Online;
            c.checkEvery = fq;
            c.faults = {OnlineFault{OnlineTarget::Result, n / 3, n / 2, std::nullopt, j}};
            const OnlineRecord r = bench.once(c);
            int caught = -1, block = 0;  // the step and the column block of the check that caught it
            double injectEnd = 0, checkEnd = 0;
            for (const VerifyEvent& e : r.verifications)
                if (caught < 0 && e.result.verdict != Verdict::Clean)
                    caught = e.block.k, block = e.block.j;
            for (const Span& s : r.spans) {
                if (s.kind == online_abft::kInjectFault && s.block.k == j)
                    injectEnd = s.end;
                if (s.kind == online_abft::kCheck && s.block.k == caught && s.block.j == block)
                    checkEnd = s.end;
            }
            t.add({fq == 0 ? "end" : std::to_string(fq), std::to_string(j), caught < 0 ? "-" : std::to_string(caught),
                   caught < 0 ? "-" : std::to_string(caught - j), caught < 0 ? "-" : fixed((checkEnd - injectEnd) * 1e3, 2),
                   verdictSummary(r)});
            rows.push_back({{"fq", fq}, {"step", j}, {"caught", caught}, {"ms", (checkEnd - injectEnd) * 1e3}});
        }
    }
    t.print(out);
    return rows;
}

// Overhead against coverage: F faults scattered over time (each after a random step, in a random
// cell); a run ends correctable when every check could correct what it found (no recompute).
json sweepSuite(Backend& backend, std::int64_t n, std::int64_t panel, int trials, int reps, std::ostream& out)
{
    FqSweepOptions o;
    o.n = n;
    o.panel = panel;
    o.trials = trials;
    o.reps = reps;
    o.seed = 2;
    const FqSweepResult sweep = sweepCheckEvery(o, backend);
    json rows = json::array();
    const int steps = int((n + panel - 1) / panel);
    out << "\nfq sweep, N = " << n << ", b = " << panel << " (" << steps << " steps), " << trials
        << " random placements per cell: runs whose faults were all corrected online (no recompute)\n";
    std::vector<std::string> head{"fq", "overhead (0 faults)"};
    for (int f : o.faultCounts)
        head.push_back(std::to_string(f) + " faults");
    Table t(head);
    for (const FqSweepRow& r : sweep.rows) {
        std::vector<std::string> row{r.checkEvery == 0 ? "end (offline)" : std::to_string(r.checkEvery), percent(r.overhead)};
        json jr{{"fq", r.checkEvery}, {"overhead", r.overhead}};
        for (std::size_t i = 0; i < o.faultCounts.size(); ++i) {
            row.push_back(std::to_string(r.correctable[i]) + "/" + std::to_string(trials));
            jr["correctable_" + std::to_string(o.faultCounts[i])] = double(r.correctable[i]) / trials;
        }
        t.add(row);
        rows.push_back(jr);
    }
    t.print(out);
    return rows;
}

void seedTables(std::ostream& out, const json& ours)
{
    out << "\nThe online-ABFT paper's own figures (" << kSeedGpu << ", FP32, ms) beside ours (ratios):\n";
    Table t({"N", "paper online", "paper CUBLAS", "paper overhead", "paper TMR", "paper TMR/online", "paper trad. ABFT",
             "paper trad./online"});
    for (const SeedRow& r : kSeedRows)
        t.add({std::to_string(r.n), fixed(r.online, 0), fixed(r.cublas, 0), percent(r.online / r.cublas - 1.0),
               fixed(r.tmr, 0), fixed(r.tmr / r.online, 2) + "x", fixed(r.traditional, 0),
               fixed(r.traditional / r.online, 2) + "x"});
    t.print(out);
    (void)ours;
}

}  // namespace

int runOnlineBench(const BenchOptions& options, std::ostream& out, std::ostream& err)
{
    std::unique_ptr<Backend> backend;
    try {
        backend = makeBackend(options.device >= 0 ? BackendKind::Cuda : BackendKind::Auto, options.device);
        backend->prepare();
    } catch (const std::exception& e) {
        err << "bench online: " << e.what() << "\n";
        return 2;
    }
    const DeviceInfo device = backend->device();
    const bool gpu = device.backend == BackendKind::Cuda;
    out << "gigacheck " << kVersion << " bench online" << (options.quick ? " (quick)" : "") << "\n"
        << "device: " << device.name << (gpu ? "" : " (no CUDA device: the CPU backend against OpenBLAS)") << "\n"
        << "date: " << benchDate() << "\ncommit: " << benchCommit()
        << "\n";
    const std::vector<std::int64_t> sizes = options.quick ? (gpu ? std::vector<std::int64_t>{2048}
                                                                 : std::vector<std::int64_t>{512})
                                                          : (gpu ? std::vector<std::int64_t>{8192, 16384}
                                                                 : std::vector<std::int64_t>{1024, 2048});
    std::vector<std::int64_t> chosen;  // GIGACHECK_BENCH_SIZES (core/bench_filter.hpp)
    for (std::int64_t n : sizes)
        if (bench::selected("GIGACHECK_BENCH_SIZES", std::to_string(n)))
            chosen.push_back(n);
    // GIGACHECK_BENCH_REPS=N (1..50): repetitions of each timed row (default 3): the overheads of a few
    // percent move by a point or two between rows with the card's clock, and more repetitions steady them.
    int reps = options.quick ? 1 : 3;
    if (const char* r = std::getenv("GIGACHECK_BENCH_REPS"); r && !options.quick)
        reps = std::clamp(std::atoi(r), 1, 50);
    json doc{{"suite", "online"}, {"device", device.name}, {"date", benchDate()}, {"quick", options.quick}};
    try {
        for (std::int64_t n : chosen) {
            const std::int64_t panel = std::min<std::int64_t>(1024, n / 8);
            Bench bench{*backend, HostMatrix(Precision::F32, n, n, backend->hostAllocator()),
                        HostMatrix(Precision::F32, n, n, backend->hostAllocator()),
                        HostMatrix(Precision::F32, n, n, backend->hostAllocator()), reps};
            fillRandom(bench.a, Distribution::Uniform, 1, 1);
            fillRandom(bench.b, Distribution::Uniform, 1, 2);
            // Warm-up of both paths: handles, first launches of every kernel (the vote's too), pages.
            bench.once(baseConfig(n, panel, device.backend));
            OnlineConfig tmrWarm = baseConfig(n, panel, device.backend);
            tmrWarm.scheme = Scheme::Tmr;
            tmrWarm.panel = 0;
            bench.once(tmrWarm);
            const double plain = plainSeconds(device.backend, n, reps + 2);
            if (bench::selected("GIGACHECK_BENCH_VARIANTS", "timing"))  // the README's filter (a bf16-only call skips it)
                doc["timing"].push_back(timingSuite(bench, n, panel, plain, device.ceilings.deviceBandwidthGBs, out));
            // TF32 at fq = 1 against plain cuBLAS TF32 (GPU only): cublas-tf32, and cutlass-tf32 whose
            // kernel writes C's sums (bench/tf32_rows.hpp).
            if (bench::selected("GIGACHECK_BENCH_VARIANTS", "tf32"))
                if (json tf32 = online_abft::tf32Rows(*backend, bench.a, bench.b, bench.c, n, panel, reps, out); !tf32.empty())
                    doc["tf32"].push_back(std::move(tf32));
            // BF16 at fq = 1 against plain cuBLAS BF16 (GPU only): --type bf16, C's sums from the CUTLASS
            // BF16 kernel's epilogue where it takes the panels.
            if (bench::selected("GIGACHECK_BENCH_VARIANTS", "bf16"))
                if (json bf16 = online_abft::bf16Rows(*backend, bench.a, bench.b, bench.c, n, panel, reps, out); !bf16.empty())
                    doc["bf16"].push_back(std::move(bf16));
            // FP16 at fq = 1 against plain cuBLAS FP16 (GPU only): --type f16 on cuBLAS FP16, the checks reading C.
            if (bench::selected("GIGACHECK_BENCH_VARIANTS", "f16"))
                if (json f16 = online_abft::f16Rows(*backend, bench.a, bench.b, bench.c, n, panel, reps, out); !f16.empty())
                    doc["f16"].push_back(std::move(f16));
            // FP32 accuracy from TF32 products at fq = 1 against plain cuBLAS SGEMM (GPU only): --gemm tf32x3.
            if (bench::selected("GIGACHECK_BENCH_VARIANTS", "tf32x3"))
                if (json x3 = online_abft::tf32x3Rows(*backend, bench.a, bench.b, bench.c, n, panel, reps, out); !x3.empty())
                    doc["tf32x3"].push_back(std::move(x3));
            if (n == chosen.front() && bench::selected("GIGACHECK_BENCH_VARIANTS", "latency"))
                doc["latency"] = latencySuite(bench, n, panel, out);
        }
        const std::int64_t sweepN = gpu ? 4096 : 512;
        if (bench::selected("GIGACHECK_BENCH_VARIANTS", "sweep"))
            doc["sweep"] = sweepSuite(*backend, sweepN, sweepN / 16, options.quick ? 4 : 10, options.quick ? 1 : 3, out);
        seedTables(out, doc);
    } catch (const std::exception& e) {
        err << "bench online failed: " << e.what() << "\n";
        return 1;
    }
    if (!options.jsonPath.empty()) {
        writeFileAtomically(options.jsonPath, doc.dump(1) + "\n", "bench JSON");  // InputError: exit 2
    }
    return 0;
}

}  // namespace gigacheck
