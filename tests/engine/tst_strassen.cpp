// The strassen family on the CPU backend: every recipe and level proven by the validator (hazards
// on regions + symbolic execution), exact results on integer inputs, error bounds on random ones,
// A and B recovered, odd shapes, every fault position detected and corrected, the faults' events.
#include "gigacheck/strassen.hpp"

#include "families/strassen/leaf_check.hpp"
#include "strassen_run_helpers.hpp"
#include "test_helpers.hpp"

#include "../../engine/src/families/strassen/recipe.hpp"
#include "families/strassen/bench/multi_device_model.hpp"
#include "families/strassen/bench/pristine_operands.hpp"

#include <QtTest>
#include <nlohmann/json.hpp>

#include <cstring>
#include <set>

using namespace gigacheck;

namespace {

// The family's kinds by their record names (ops.hpp is internal to the engine).
const OpKind kProduct = opKindFromString("strassen-product");
const OpKind kLoad = opKindFromString("strassen-load");
const OpKind kStore = opKindFromString("strassen-store");
const OpKind kAdd = opKindFromString("strassen-add");

constexpr StrassenVariant kVariants[] = {StrassenVariant::Msmes, StrassenVariant::Winograd, StrassenVariant::Workspace,
                                         StrassenVariant::Accumulate};

StrassenConfig config(Shape shape, int levels, StrassenVariant v, Precision p = Precision::F32)
{
    StrassenConfig c;
    c.shape = shape;
    c.levels = levels;
    c.variant = v;
    c.precision = p;
    c.backend = BackendKind::Cpu;
    return c;
}

StrassenResult run(const StrassenConfig& c)
{
    auto backend = makeStrassenBackend(c);
    return runStrassen(c, *backend);
}

}  // namespace

class TestStrassen : public QObject {
    Q_OBJECT
private slots:
    // Every field of the record's section away from its default comes back equal: a field the
    // record's field table misses or misreads shows here. One device with TF32 leaves, and two
    // devices in FP64 with the 2D decomposition.
    void recordEveryFieldRoundTrips()
    {
        StrassenResult one;
        StrassenConfig& c = one.config;
        c.shape = {96, 80, 64};
        c.levels = 3;
        c.variant = StrassenVariant::Winograd;
        c.tf32 = true;
        c.multiTargetKernel = true;
        c.exactRestore = true;
        c.sumsBeside = true;
        c.checkLeaves = true;
        c.faults = {parseStrassenFault("c:3,4:0.5@2"), parseStrassenFault("product:5")};
        c.faultModel = parseFaultModelSpec("bitflip:30");
        c.seed = 5000000000ULL;
        c.distribution = Distribution::Wide;
        c.reference = true;
        c.referenceAlways = true;
        c.verify = false;
        one.levels = 2;
        one.core = {64, 64, 32};
        one.verdict = StrassenVerdict::Uncorrectable;
        one.error = "";
        one.devices.front().name = "CPU: test";
        one.seconds = 0.5;
        one.restoreSeconds = 0.125;
        one.products = 49;
        one.gemmCalls = 98;
        one.additions = 36;
        one.additionsBeside = 12;
        one.leavesChecked = 49;
        one.leafWorstRatio = 2.5;
        one.operandBytes = std::size_t(1) << 33;  // past 32 bits
        one.peakDeviceBytes = 3000000000;
        one.extraBytes = 123456;
        one.relErrorC = 1e-6;
        one.maxErrorC = 2e-5;
        one.nonFiniteC = 3;
        one.referenceMismatches = 4;
        one.referenceWorstRatio = 7.5;
        one.cWorstCleanRatio = 0.25;
        one.cDetectionFloor = 1e-3;
        one.cMaxAbs = 40;
        one.referenceFloor = 2e-3;
        one.verifiedBy = "checksums+reference";
        one.recovery = {2, 1.5, 0.5, 6, 7};
        one.checks = {{"c", "recomputed", 3, -1, "1 row"}, {"a", "clean", -1, 5, ""}};
        one.placement = "1 device";

        StrassenResult two = one;
        two.config.tf32 = false;
        two.config.precision = Precision::F64;
        two.config.devices = 2;
        two.config.distribute = true;
        two.config.decomposition = StrassenDecomposition::TwoD;
        two.config.multiTargetKernel = false;
        two.config.sumsBeside = false;
        two.verdict = StrassenVerdict::Verified;
        two.devices = {one.devices.front(), one.devices.front()};
        two.devices[1].index = 1;
        two.placement = "2 devices emulated on the CPU";

        // A stopped run: the envelope's status, whatever verdict the result held.
        StrassenResult stopped = two;
        stopped.status = "cancelled";

        for (const StrassenResult* sent : {&one, &two, &stopped}) {
            const std::optional<StrassenResult> read = strassenResultFromJson(strassenRecordJson(*sent));
            QVERIFY(read.has_value());
            const StrassenResult& back = *read;
            const StrassenConfig &a = back.config, &b = sent->config;
            QCOMPARE(a.shape.m, b.shape.m);
            QCOMPARE(a.shape.n, b.shape.n);
            QCOMPARE(a.shape.q, b.shape.q);
            QCOMPARE(a.levels, b.levels);
            QVERIFY(a.variant == b.variant);
            QCOMPARE(a.tf32, b.tf32);
            QVERIFY(a.precision == b.precision);
            QCOMPARE(a.devices, b.devices);
            QCOMPARE(a.distribute, b.distribute);
            QVERIFY(a.decomposition == b.decomposition);
            QCOMPARE(a.exactRestore, b.exactRestore);
            QCOMPARE(a.multiTargetKernel, b.multiTargetKernel);
            QCOMPARE(a.sumsBeside, b.sumsBeside);
            QCOMPARE(a.checkLeaves, b.checkLeaves);
            QCOMPARE(a.faults.size(), b.faults.size());
            for (std::size_t i = 0; i < a.faults.size(); ++i)
                QCOMPARE(toString(a.faults[i]), toString(b.faults[i]));
            QVERIFY(a.faultModel == b.faultModel);
            QCOMPARE(a.seed, b.seed);
            QVERIFY(a.distribution == b.distribution);
            QCOMPARE(a.reference, b.reference);
            QCOMPARE(a.referenceAlways, b.referenceAlways);
            QCOMPARE(a.verify, b.verify);
            QCOMPARE(back.levels, sent->levels);
            QCOMPARE(back.core.m, sent->core.m);
            QCOMPARE(back.core.n, sent->core.n);
            QCOMPARE(back.core.q, sent->core.q);
            QCOMPARE(back.status, sent->status);
            QCOMPARE(strassenOutcome(back), strassenOutcome(*sent));
            if (sent->status == "ok")
                QVERIFY(back.verdict == sent->verdict);
            QCOMPARE(back.family, std::string("strassen"));
            QCOMPARE(back.seconds, sent->seconds);
            QCOMPARE(back.restoreSeconds, sent->restoreSeconds);
            QCOMPARE(back.products, sent->products);
            QCOMPARE(back.gemmCalls, sent->gemmCalls);
            QCOMPARE(back.additions, sent->additions);
            QCOMPARE(back.additionsBeside, sent->additionsBeside);
            QCOMPARE(back.leavesChecked, sent->leavesChecked);
            QCOMPARE(back.leafWorstRatio, sent->leafWorstRatio);
            QCOMPARE(back.operandBytes, sent->operandBytes);
            QCOMPARE(back.peakDeviceBytes, sent->peakDeviceBytes);
            QCOMPARE(back.extraBytes, sent->extraBytes);
            QCOMPARE(back.relErrorC, sent->relErrorC);
            QCOMPARE(back.maxErrorC, sent->maxErrorC);
            QCOMPARE(back.nonFiniteC, sent->nonFiniteC);
            QCOMPARE(back.referenceMismatches, sent->referenceMismatches);
            QCOMPARE(back.referenceWorstRatio, sent->referenceWorstRatio);
            QCOMPARE(back.cWorstCleanRatio, sent->cWorstCleanRatio);
            QCOMPARE(back.cDetectionFloor, sent->cDetectionFloor);
            QCOMPARE(back.cMaxAbs, sent->cMaxAbs);
            QCOMPARE(back.referenceFloor, sent->referenceFloor);
            QCOMPARE(back.verifiedBy, sent->verifiedBy);
            QCOMPARE(back.recovery.level, sent->levels);
            QCOMPARE(back.recovery.maxUlpsA, sent->recovery.maxUlpsA);
            QCOMPARE(back.recovery.maxUlpsB, sent->recovery.maxUlpsB);
            QCOMPARE(back.recovery.changedA, sent->recovery.changedA);
            QCOMPARE(back.recovery.changedB, sent->recovery.changedB);
            QCOMPARE(back.checks.size(), sent->checks.size());
            for (std::size_t i = 0; i < back.checks.size(); ++i) {
                QCOMPARE(back.checks[i].where, sent->checks[i].where);
                QCOMPARE(back.checks[i].verdict, sent->checks[i].verdict);
                QCOMPARE(back.checks[i].row, sent->checks[i].row);
                QCOMPARE(back.checks[i].col, sent->checks[i].col);
                QCOMPARE(back.checks[i].detail, sent->checks[i].detail);
            }
            QCOMPARE(back.placement, sent->placement);
            QCOMPARE(back.devices.size(), sent->devices.size());
        }

        // A verdict word the family never wrote is refused, never read as verified.
        std::string text = strassenRecordJson(one);
        const std::size_t at = text.find("\"uncorrectable\"");
        QVERIFY(at != std::string::npos);
        text.replace(at, std::string("\"uncorrectable\"").size(), "\"fine\"");
        try {
            strassenResultFromJson(text);
            QFAIL("a record with verdict 'fine' was read");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("strassen.verdict") != std::string::npos, e.what());
        }
    }

    void validatorProvesEveryRecipeAndLevel()
    {
        for (StrassenVariant v : kVariants)
            for (int levels = 0; levels <= kMaxStrassenLevels; ++levels)
                for (bool exact : {false, true}) {
                    // The CLI allows 4 levels. There the proof of winograd (4^4 targets per leaf)
                    // takes seconds on two cores: level 4 for the seed's msmes and for accumulate
                    // (whose recipe is winograd's with the C-block sums; workspace is msmes's),
                    // with recovery stages (exact restore only drops them).
                    if (levels == kMaxStrassenLevels &&
                        (exact || v == StrassenVariant::Winograd || v == StrassenVariant::Workspace))
                        continue;
                    StrassenConfig c = config({64, 48, 32}, levels, v);
                    c.exactRestore = exact;
                    const Schedule s = buildStrassenSchedule(c);
                    const std::string why = validateStrassenSchedule(s, c);
                    QVERIFY2(why.empty(), (std::string(toString(v)) + " L" + std::to_string(levels) + ": " + why).c_str());
                }
    }

    void validatorCatchesARaceAndAMissingRecovery()
    {
        StrassenConfig c = config({32, 32, 32}, 1, StrassenVariant::Msmes);
        Schedule s = buildStrassenSchedule(c);
        // A stage-2 product loses its dependency on stage 1: it may read A2 before A2 = A2 + A3.
        Schedule raced = s;
        for (Operation& op : raced.ops)
            if (op.kind == kProduct) {
                op.deps.clear();
                break;
            }
        QVERIFY(validateStrassenSchedule(raced, c).find("races") != std::string::npos);
        // Without stage 7 A1, A2, B1, B2 stay overwritten.
        Schedule unrecovered = s;
        std::vector<Operation> kept;
        for (const Operation& op : s.ops)
            if (!(op.kind == kAdd && op.block.j == 7))
                kept.push_back(op);
        // Renumber: ops dropped from the end part only (stage 7 is followed by stores).
        std::vector<int> newId(s.ops.size(), -1);
        for (std::size_t i = 0; i < kept.size(); ++i)
            newId[std::size_t(kept[i].id)] = int(i);
        for (std::size_t i = 0; i < kept.size(); ++i) {
            kept[i].id = int(i);
            std::vector<int> deps;
            for (int d : kept[i].deps)
                if (newId[std::size_t(d)] >= 0)
                    deps.push_back(newId[std::size_t(d)]);
            kept[i].deps = deps;
        }
        unrecovered.ops = kept;
        QVERIFY(validateStrassenSchedule(unrecovered, c).find("not recovered") != std::string::npos);
    }

    void seedStagesAreTheRecipe()
    {
        const strassen::Recipe& r = strassen::recipeOf(StrassenVariant::Msmes);
        QCOMPARE(strassen::productCount(r), 7);
        QCOMPARE(int(r.steps.size()), 7 + 16);  // 4 + 2 + 4 + 2 + 4 sums
        QCOMPARE(strassen::productCount(strassen::recipeOf(StrassenVariant::Accumulate)), 7);
        for (const strassen::Step& s : strassen::recipeOf(StrassenVariant::Accumulate).steps)
            if (s.kind == strassen::Step::Kind::Product)
                QCOMPARE(int(s.targets.size()), 1);
    }

    void exactOnIntegerInputs()
    {
        for (StrassenVariant v : kVariants)
            for (Precision p : {Precision::F32, Precision::F64})
                for (int levels = 0; levels <= kMaxStrassenLevels; ++levels) {
                    // Level 4 (the CLI allows it): FP32, msmes and accumulate (as the validator test
                    // above; winograd's 14^4 leaf GEMMs and their proof take seconds on two cores),
                    // FP32 being where exactness is the tighter claim.
                    if (levels == kMaxStrassenLevels &&
                        (p == Precision::F64 || v == StrassenVariant::Winograd || v == StrassenVariant::Workspace))
                        continue;
                    StrassenConfig c = config({48, 40, 56}, levels, v, p);
                    c.integerInputs = true;
                    const StrassenResult r = run(c);
                    const std::string what = std::string(toString(v)) + " " + std::string(toString(p)) + " L" +
                                             std::to_string(levels);
                    QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r) + " " + r.error).c_str());
                    QVERIFY2(r.maxErrorC == 0, (what + ": error " + std::to_string(r.maxErrorC)).c_str());
                    QCOMPARE(r.recovery.changedA, std::int64_t(0));
                    QCOMPARE(r.recovery.changedB, std::int64_t(0));
                    QCOMPARE(r.levels, levels);
                    QCOMPARE(r.checks.back().verdict, std::string("clean"));
                }
    }

    // The bench's rows share one pair of inputs; runStrassenOn leaves A and B recovered (rounded).
    // Two rows of the same recipe, with another recipe between them, report the same recovery
    // figures when each starts from the pristine inputs; on the leftovers of the rows before they
    // do not (what the bench showed before PristineOperands).
    void benchRowsStartFromPristineInputs()
    {
        StrassenConfig c = config({64, 64, 64}, 2, StrassenVariant::Accumulate);
        c.verify = false;
        StrassenConfig other = config({64, 64, 64}, 1, StrassenVariant::Msmes);
        other.verify = false;
        auto backend = makeStrassenBackend(c);
        strassen::PristineOperands operands(c, *backend);
        const HostMatrix madeA = [&] {
            HostMatrix m(Precision::F32, 64, 64);
            std::memcpy(m.data(), operands.a().data(), m.bytes());
            return m;
        }();
        operands.refresh();
        const StrassenResult first = runStrassenOn(c, *backend, operands.a(), operands.b());
        QVERIFY(first.recovery.changedA > 0);  // recovery rounds: the figures measure something
        operands.refresh();
        runStrassenOn(other, *backend, operands.a(), operands.b());
        operands.refresh();
        QCOMPARE(std::memcmp(operands.a().data(), madeA.data(), madeA.bytes()), 0);
        const StrassenResult second = runStrassenOn(c, *backend, operands.a(), operands.b());
        QCOMPARE(second.recovery.changedA, first.recovery.changedA);
        QCOMPARE(second.recovery.changedB, first.recovery.changedB);
        QCOMPARE(second.recovery.maxUlpsA, first.recovery.maxUlpsA);
        QCOMPARE(second.recovery.maxUlpsB, first.recovery.maxUlpsB);
        // Without the refresh the same recipe runs on rounded inputs and reports other figures.
        runStrassenOn(other, *backend, operands.a(), operands.b());
        const StrassenResult stale = runStrassenOn(c, *backend, operands.a(), operands.b());
        QVERIFY(stale.recovery.changedA != first.recovery.changedA || stale.recovery.changedB != first.recovery.changedB);
    }

    // --type tf32 on the CPU: the leaves multiply operands rounded to TF32 (10 mantissa bits), so C
    // shows TF32's error, not FP32's; A and B are rounded only in the leaves' copies, their
    // recovery is FP32's; small integers stay exact.
    void tf32LeavesEmulatedOnTheCpu()
    {
        StrassenConfig c = config({128, 128, 128}, 2, StrassenVariant::Accumulate);
        const StrassenResult f32 = run(c);
        c.tf32 = true;
        const StrassenResult tf32 = run(c);
        QCOMPARE(strassenOutcome(tf32), std::string("ok"));
        QVERIFY2(tf32.relErrorC > 50 * f32.relErrorC, (std::to_string(tf32.relErrorC) + " vs " + std::to_string(f32.relErrorC)).c_str());
        QVERIFY(tf32.relErrorC < 1e-2);
        QCOMPARE(tf32.recovery.changedA, f32.recovery.changedA);
        QCOMPARE(tf32.recovery.maxUlpsB, f32.recovery.maxUlpsB);
        QVERIFY(formatStrassenReport(tf32).find("type tf32 (emulated") != std::string::npos);
        c.integerInputs = true;
        QCOMPARE(run(c).maxErrorC, 0.0);
    }

    void zeroExtraMemoryForInPlaceVariants()
    {
        for (StrassenVariant v : kVariants) {
            const StrassenResult r = run(config({64, 64, 64}, 2, v));
            if (v == StrassenVariant::Workspace)
                QCOMPARE(r.extraBytes, std::size_t(16 * 16 * 4));  // one leaf block M
            else
                QCOMPARE(r.extraBytes, std::size_t(0));
        }
    }

    void randomInputsWithinTheBound()
    {
        for (StrassenVariant v : kVariants)
            for (int levels = 1; levels <= 3; ++levels) {
                const StrassenResult r = run(config({128, 128, 128}, levels, v));
                QCOMPARE(strassenOutcome(r), std::string("ok"));
                // FP32: u = 6e-8; Strassen's error grows with the levels but stays far below this.
                QVERIFY2(r.relErrorC < 1e-4, std::to_string(r.relErrorC).c_str());
                QVERIFY(r.relErrorC > 0);
            }
    }

    void oddShapesArePeeledNotRefused()
    {
        for (Shape s : {Shape{37, 29, 41}, Shape{1, 5, 3}, Shape{17, 1, 9}, Shape{65, 64, 63}})
            for (StrassenVariant v : kVariants) {
                StrassenConfig c = config(s, 3, v);
                c.integerInputs = true;
                const StrassenResult r = run(c);
                QCOMPARE(strassenOutcome(r), std::string("ok"));
                QCOMPARE(r.maxErrorC, 0.0);
                QVERIFY(r.levels <= 3);
            }
    }

    // With the multi-target kernel, a product that reaches other C blocks than the product just
    // before it runs beside it on a stream of its own: msmes stage 2 M1 | M2, M3 together | M4, and
    // stage 5 M0 | M5, M6 together; never without the kernel or with --sums inline.
    void productsBesideWithTheKernel()
    {
        const OpKind kProduct = opKindFromString("strassen-product");
        const auto productStreams = [&](const StrassenConfig& c) {
            std::vector<int> out;
            for (const Operation& op : buildStrassenSchedule(c).ops)
                if (op.kind == kProduct)
                    out.push_back(op.stream);
            return out;
        };
        StrassenConfig c = config({64, 64, 64}, 1, StrassenVariant::Msmes);
        c.multiTargetKernel = true;
        const Schedule s = buildStrassenSchedule(c);
        const std::vector<int> streams = productStreams(c);
        QCOMPARE(streams.size(), std::size_t(7));
        const int lane = s.streams - 1;
        QVERIFY(lane > 0);
        QCOMPARE(streams, (std::vector<int>{0, 0, lane, 0, 0, 0, lane}));
        c.sumsBeside = false;
        QCOMPARE(productStreams(c), std::vector<int>(7, 0));
        c.sumsBeside = true;
        c.multiTargetKernel = false;
        for (int stream : productStreams(c))
            QCOMPARE(stream, 0);
    }

    // Sums beside products: a sum goes to a side stream (1-3) only when it does not need the op
    // issued last on stream 0 (the product it would otherwise queue behind), to the side stream
    // whose last op it needs if there is one; the schedule stays proven (the validator checks every
    // order of independent ops); --sums inline keeps one stream.
    void sumsBesideOnlyWhereTheyNeedNotWait()
    {
        for (StrassenVariant v : kVariants)
            for (int levels = 1; levels <= 3; ++levels) {
                StrassenConfig c = config({64, 64, 64}, levels, v);
                const Schedule s = buildStrassenSchedule(c);
                const std::string what = std::string(toString(v)) + " L" + std::to_string(levels);
                QVERIFY2(validateStrassenSchedule(s, c).empty(), what.c_str());
                QVERIFY(s.streams >= 2 && s.streams <= 4);
                int lastOnMain = -1, beside = 0, adds = 0;
                std::vector<int> lastOnSide(4, -1);
                const auto needs = [](const Operation& op, int id) {
                    return id >= 0 && std::find(op.deps.begin(), op.deps.end(), id) != op.deps.end();
                };
                for (const Operation& op : s.ops) {
                    if (op.queue != Queue::Compute)
                        continue;
                    adds += op.kind == kAdd;
                    if (op.stream == 0) {
                        lastOnMain = op.id;
                        continue;
                    }
                    QVERIFY(op.stream >= 1 && op.stream < s.streams);
                    QVERIFY2(op.kind == kAdd, what.c_str());
                    QVERIFY2(!needs(op, lastOnMain), what.c_str());
                    // A sum that needs the last op of another side stream would wait on it there.
                    for (int other = 1; other < s.streams; ++other)
                        if (other != op.stream)
                            QVERIFY2(!needs(op, lastOnSide[std::size_t(other)]) ||
                                         needs(op, lastOnSide[std::size_t(op.stream)]),
                                     what.c_str());
                    lastOnSide[std::size_t(op.stream)] = op.id;
                    ++beside;
                }
                // Most sums of every recipe are free of the product before them.
                QVERIFY2(2 * beside >= adds, (what + ": " + std::to_string(beside) + " of " + std::to_string(adds)).c_str());
                // The same run with every op on one stream: the same products and sums.
                c.sumsBeside = false;
                const Schedule one = buildStrassenSchedule(c);
                QCOMPARE(one.streams, 1);
                QCOMPARE(one.ops.size(), s.ops.size());
                for (const Operation& op : one.ops)
                    QCOMPARE(op.stream, 0);
            }
        // The global decomposition: on device 0 the sums, its products and the scatters into C each
        // on a stream of their own; one stream on the other devices.
        StrassenConfig d = config({64, 64, 64}, 1, StrassenVariant::Winograd);
        d.devices = 2;
        const Schedule spread = buildStrassenSchedule(d);
        QCOMPARE(spread.streams, 3);
        const OpKind kScatter = opKindFromString("strassen-scatter");
        for (const Operation& op : spread.ops) {
            if (op.device != 0 || op.queue != Queue::Compute)
                QCOMPARE(op.stream, 0);
            else
                QCOMPARE(op.stream, op.kind == kProduct ? 1 : op.kind == kScatter ? 2 : 0);
        }
    }

    // `gigacheck show` and the lab open a record file through loadStrassenRecord: a saved record
    // reads back; a damaged one is refused with the file and the field named, never cast (a float
    // where an integer belongs was undefined behaviour in the reader).
    void recordFilesLoadOrAreRefusedByName()
    {
        const StrassenResult r = run(config({32, 32, 32}, 1, StrassenVariant::Winograd));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto save = [&](const QString& name, const std::string& text) {
            QFile f(dir.filePath(name));
            if (!f.open(QIODevice::WriteOnly))
                return std::string();
            f.write(text.data(), qint64(text.size()));
            return f.fileName().toStdString();
        };
        const std::string saved = strassenRecordJson(r);
        const std::string good = save(QStringLiteral("good.json"), saved);
        const StrassenResult back = loadStrassenRecord(good);
        QCOMPARE(back.levels, r.levels);
        QCOMPARE(back.config.shape.m, std::int64_t(32));
        std::string damaged = saved;
        const std::size_t at = damaged.find("\"shape\"");
        QVERIFY(at != std::string::npos);
        const std::size_t open = damaged.find('[', at);
        damaged.replace(open + 1, damaged.find(',', open) - open - 1, "1e30");
        const std::string bad = save(QStringLiteral("bad.json"), damaged);
        const QString error = test::inputErrorOf([&] { loadStrassenRecord(bad); });
        QVERIFY2(error.startsWith(test::qs(bad)), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("strassen.shape[0]")), qPrintable(error));
        QVERIFY(test::inputErrorOf([&] { loadStrassenRecord(dir.filePath(QStringLiteral("missing.json")).toStdString()); })
                    .contains(QStringLiteral("missing.json")));
        // Words and counts no run writes are refused by their field, not read as some default.
        const std::pair<const char*, nlohmann::json> edits[] = {{"/status", "bogus"},
                                                               {"/strassen/leaf", "bogus"},
                                                               {"/strassen/sums", "bogus"},
                                                               {"/strassen/levels", -1},
                                                               {"/strassen/core", nlohmann::json::array({64, 32, 32})}};
        for (const auto& [pointer, value] : edits) {
            nlohmann::json edited = nlohmann::json::parse(saved);
            edited[nlohmann::json::json_pointer(pointer)] = value;
            const QString why = test::inputErrorOf([&] { strassenResultFromJson(edited.dump()); });
            const QString field = QString::fromLatin1(pointer).mid(1).replace(QLatin1Char('/'), QLatin1Char('.'));
            QVERIFY2(why.contains(QStringLiteral("'") + field + QStringLiteral("'")), qPrintable(field + QStringLiteral(": ") + why));
        }
    }

    // The record keeps whether a decomposition ran: one device with --decomposition 2d comes back
    // with it (report line, schedule), a plain run names none; old records (every run said
    // "decomposition": "winograd", no "distribute") read as before: a decomposition when devices > 1.
    void recordKeepsAOneDeviceDecomposition()
    {
        StrassenConfig c = config({32, 32, 32}, 1, StrassenVariant::Msmes);
        c.distribute = true;
        c.decomposition = StrassenDecomposition::TwoD;
        const StrassenResult r = run(c);
        const std::string text = strassenRecordJson(r);
        QVERIFY(text.find("\"distribute\": true") != std::string::npos);
        const std::optional<StrassenResult> back = strassenResultFromJson(text);
        QVERIFY(back);
        QVERIFY(back->config.distribute);
        QCOMPARE(int(back->config.decomposition), int(StrassenDecomposition::TwoD));
        QVERIFY(formatStrassenReport(*back).find("devices    1 (2d decomposition") != std::string::npos);
        QCOMPARE(buildStrassenSchedule(back->config).ops.size(), buildStrassenSchedule(c).ops.size());

        const StrassenResult plain = run(config({32, 32, 32}, 1, StrassenVariant::Msmes));
        std::string plainText = strassenRecordJson(plain);
        QVERIFY(plainText.find("\"decomposition\"") == std::string::npos);
        QVERIFY(!strassenResultFromJson(plainText)->config.distribute);
        QVERIFY(formatStrassenReport(*strassenResultFromJson(plainText)).find("devices ") == std::string::npos);
        // An old record: "decomposition" always there, no "distribute".
        const std::size_t at = plainText.find("\"distribute\": false");
        QVERIFY(at != std::string::npos);
        plainText.replace(at, std::string("\"distribute\": false").size(), "\"decomposition\": \"winograd\"");
        const std::optional<StrassenResult> old = strassenResultFromJson(plainText);
        QVERIFY(old && !old->config.distribute);
    }

    void sumsPlacementIsInTheRecordAndTheReport()
    {
        StrassenConfig c = config({32, 32, 32}, 2, StrassenVariant::Accumulate);
        const StrassenResult beside = run(c);
        QVERIFY(beside.additionsBeside > 0);
        QVERIFY(beside.additionsBeside < beside.additions);
        const std::optional<StrassenResult> back = strassenResultFromJson(strassenRecordJson(beside));
        QVERIFY(back.has_value());
        QVERIFY(back->config.sumsBeside);
        QCOMPARE(back->additionsBeside, beside.additionsBeside);
        // The CPU executor runs a queue's ops one at a time: the report does not claim overlap.
        QVERIFY(formatStrassenReport(beside).find("the CPU runs them in line") != std::string::npos);
        c.sumsBeside = false;
        const StrassenResult inlined = run(c);
        QCOMPARE(inlined.additionsBeside, 0);
        QCOMPARE(inlined.maxErrorC, beside.maxErrorC);
        const std::optional<StrassenResult> back2 = strassenResultFromJson(strassenRecordJson(inlined));
        QVERIFY(back2.has_value());
        QVERIFY(!back2->config.sumsBeside);
        QVERIFY(formatStrassenReport(inlined).find("--sums inline") != std::string::npos);
    }

    // Leaf checks: every leaf product (fringe ones too) checked; clean inputs never trip one (FP32
    // and FP64, wide magnitudes, every variant and level); a fault placed into a product is caught
    // at that leaf and nowhere else, and C's checks repair it (accumulate's later C transforms
    // spread it over a column: recomputed); a fault in a C block between
    // stages is not a product's (no leaf trips) and C's checks catch it.
    void leafChecksHoldOnCleanRunsAndCatchAProductFault()
    {
        const OpKind kLeafVerify = opKindFromString("strassen-leaf-verify");
        for (StrassenVariant v : kVariants)
            for (Precision p : {Precision::F32, Precision::F64})
                for (int levels = 0; levels <= 3; ++levels) {
                    StrassenConfig c = config({96, 80, 104}, levels, v, p);
                    c.distribution = Distribution::Wide;
                    c.checkLeaves = true;
                    const StrassenResult r = run(c);
                    const std::string what = std::string(toString(v)) + " " + std::string(toString(p)) + " L" +
                                             std::to_string(levels);
                    int products = 0;
                    for (const Operation& op : buildStrassenSchedule(c).ops)
                        products += op.kind == kLeafVerify;
                    QVERIFY2(products > 0, what.c_str());
                    QCOMPARE(r.leavesChecked, products);
                    QVERIFY2(r.leafWorstRatio < 1, (what + ": " + std::to_string(r.leafWorstRatio)).c_str());
                    QVERIFY2(r.leafWorstRatio > 0, what.c_str());
                    QCOMPARE(strassenOutcome(r), std::string("ok"));
                    for (const StrassenCheck& k : r.checks)
                        QVERIFY2(k.verdict != "detected", (what + ": " + k.where).c_str());
                }
        for (StrassenVariant v : kVariants)
            for (int leaf : {0, 5, 48}) {
                StrassenConfig c = config({128, 128, 128}, 2, v);
                c.checkLeaves = true;
                c.faults = {{StrassenFault::Where::Product, leaf, 0}};
                const StrassenResult r = run(c);
                const std::string what = std::string(toString(v)) + " product:" + std::to_string(leaf);
                std::vector<std::string> caught;
                bool corrected = false;
                for (const StrassenCheck& k : r.checks) {
                    if (k.verdict == "detected")
                        caught.push_back(k.where);
                    corrected |= k.where == "c" && (k.verdict == "corrected" || k.verdict == "recomputed");
                }
                QCOMPARE(caught, std::vector<std::string>{"product " + std::to_string(leaf)});
                QVERIFY2(corrected, what.c_str());
                QCOMPARE(strassenOutcome(r), std::string("ok"));
                QVERIFY(r.leafWorstRatio > 1);
            }
        // A fault above the leaf's threshold but within C's (the leaf's depth is N / 4 here): C's
        // checks cannot see it, the leaf says which column of its block is off, and the columns of
        // C that error can have reached (accumulate's C-block sums spread it over the core's
        // leaf-wide blocks) are recomputed: C ends right, as the FP64 reference confirms. Without
        // leaf checks the same fault goes unseen (C's checks pass a C that is off).
        for (StrassenVariant v : kVariants) {
            StrassenConfig small = config({256, 256, 256}, 2, v);
            small.reference = true;
            small.faults = {{StrassenFault::Where::Product, 5, 0.1}};
            const StrassenResult unseen = run(small);
            small.checkLeaves = true;
            const StrassenResult hidden = run(small);
            const std::string what(toString(v));
            QVERIFY2(hidden.leafWorstRatio > 1, what.c_str());
            QCOMPARE(strassenOutcome(hidden), std::string("ok"));
            QCOMPARE(strassenExitCode(hidden), 0);
            bool repaired = false;
            for (const StrassenCheck& k : hidden.checks)
                if (k.where == "c" && k.verdict == "recomputed" && k.detail.find("leaf product 5") != std::string::npos) {
                    repaired = true;
                    // 256 / 4 = 64-wide leaves: at most 4 columns (accumulate), 1 where nothing spreads.
                    QVERIFY2(k.detail.find("the 4 column(s)") != std::string::npos ||
                                 k.detail.find("the 1 column(s)") != std::string::npos,
                             k.detail.c_str());
                }
            QVERIFY2(repaired, what.c_str());
            // Without leaf checks C's own checks (or, below their threshold, the reference) repair it.
            QCOMPARE(strassenOutcome(unseen), std::string("ok"));
            QVERIFY2(unseen.maxErrorC < 1e-3, (what + ": " + std::to_string(unseen.maxErrorC)).c_str());
            QVERIFY2(hidden.maxErrorC < 1e-3, (what + ": " + std::to_string(hidden.maxErrorC)).c_str());
        }
        StrassenConfig inC = config({128, 128, 128}, 2, StrassenVariant::Accumulate);
        inC.checkLeaves = true;
        inC.faults = {{StrassenFault::Where::C, 2, 0}};
        const StrassenResult r = run(inC);
        QVERIFY(r.leafWorstRatio < 1);
        QCOMPARE(strassenOutcome(r), std::string("ok"));
        // The record keeps the leaf checks.
        const std::optional<StrassenResult> back = strassenResultFromJson(strassenRecordJson(r));
        QVERIFY(back.has_value());
        QVERIFY(back->config.checkLeaves);
        QCOMPARE(back->leavesChecked, r.leavesChecked);
        QCOMPARE(back->leafWorstRatio, r.leafWorstRatio);
        // One device only: the decomposition's tasks are plain GEMMs.
        StrassenConfig spread = config({64, 64, 64}, 1, StrassenVariant::Winograd);
        spread.checkLeaves = true;
        spread.devices = 2;
        QVERIFY_THROWS_EXCEPTION(InputError, buildStrassenSchedule(spread));
    }

    // The leaf's column code (leaf_check.hpp): one column, in one or several targets, is
    // repairable; columns at different places are not.
    void leafColumnCodesMerge()
    {
        using strassen::mergeLeafColumnCode;
        QCOMPARE(mergeLeafColumnCode(0, 0), 0.0);
        QCOMPARE(mergeLeafColumnCode(0, 8), 8.0);
        QCOMPARE(mergeLeafColumnCode(8, 0), 8.0);
        QCOMPARE(mergeLeafColumnCode(8, 8), 8.0);
        QCOMPARE(mergeLeafColumnCode(8, 9), -1.0);
        QCOMPARE(mergeLeafColumnCode(-1, 8), -1.0);
        QCOMPARE(mergeLeafColumnCode(8, -1), -1.0);
        QCOMPARE(mergeLeafColumnCode(-1, 0), -1.0);
    }

    void exactRestoreLeavesOperandsBitEqual()
    {
        StrassenConfig c = config({96, 96, 96}, 2, StrassenVariant::Msmes);
        c.distribution = Distribution::Wide;
        const StrassenResult rounded = run(c);
        c.exactRestore = true;
        const StrassenResult exact = run(c);
        QCOMPARE(exact.recovery.changedA, std::int64_t(0));
        QCOMPARE(exact.recovery.changedB, std::int64_t(0));
        QCOMPARE(strassenOutcome(exact), std::string("ok"));
        // Wide magnitudes: (A0 + A3) - A3 loses the small A0 digits.
        QVERIFY(rounded.recovery.changedA > 0);
        QVERIFY(rounded.recovery.maxUlpsA > 0);
    }

    void multiDeviceScheduleForOneTwoThreeAndSevenDevices()
    {
        const OpKind kCopy = opKindFromString("strassen-copy");
        for (StrassenDecomposition d : {StrassenDecomposition::Winograd, StrassenDecomposition::TwoD})
            for (int g : {1, 2, 3, 7}) {
                // One level: each task one GEMM (the core peeled to multiples of 2).
                StrassenConfig c = config({66, 50, 34}, 1, StrassenVariant::Msmes);
                c.devices = g;
                c.distribute = true;
                c.decomposition = d;
                c.integerInputs = true;
                const Schedule s = buildStrassenSchedule(c);
                const std::string why = validateStrassenSchedule(s, c);
                const std::string what = std::string(toString(d)) + " G=" + std::to_string(g);
                QVERIFY2(why.empty(), (what + ": " + why).c_str());
                std::set<int> devices;
                int products = 0, copies = 0, privateCopies = 0, gemmCalls = 0;
                std::set<int> localProducts;
                for (const Operation& op : s.ops) {
                    devices.insert(op.device);
                    products += op.kind == kProduct && op.block.i == 1;
                    if (op.kind == kProduct && op.block.i == 1)
                        gemmCalls += int(op.operands.size()) - 2;
                    // Nothing of the decomposition starts before A, B and C are resident (the
                    // first three ops load them).
                    if (op.kind != kLoad && op.kind != kStore)
                        for (int load : {0, 1, 2})
                            QVERIFY2(std::find(op.deps.begin(), op.deps.end(), load) != op.deps.end(), what.c_str());
                    copies += op.kind == kCopy;
                    if (op.kind == kProduct && op.device == 0 && op.block.i == 1)
                        localProducts.insert(op.id);
                    // No sum waits for a product of device 0: a task there whose operand blocks a
                    // later sum overwrites multiplies private copies of them.
                    if (op.kind == kAdd)
                        for (int dep : op.deps)
                            QVERIFY2(!localProducts.count(dep), (what + ": a sum waits for device 0's product").c_str());
                    // Device 0's private copies: from its A or B into its own blocks.
                    if (op.kind == kCopy && op.device == 0) {
                        QCOMPARE(s.buffers[std::size_t(op.operands[0].slot)].device, 0);
                        QCOMPARE(s.buffers[std::size_t(op.operands[1].slot)].device, 0);
                        ++privateCopies;
                        continue;
                    }
                    // Peer copies on the remote device's copy queues: operands in, the result out.
                    if (op.kind == kCopy) {
                        QVERIFY(op.device != 0);
                        QVERIFY(op.queue == (s.buffers[std::size_t(op.operands[1].slot)].device == op.device ? Queue::H2D
                                                                                                           : Queue::D2H));
                    }
                }
                // Device 0's top-level sums (remote tasks wait for them) and scatters run on urgent
                // streams, its products on an ordinary one: no sum waits out a product's waves.
                for (const Operation& op : s.ops) {
                    if (op.device != 0 || op.queue != Queue::Compute || s.streams == 1)
                        continue;
                    const bool urgent = std::find(s.urgentStreams.begin(), s.urgentStreams.end(), op.stream) !=
                                        s.urgentStreams.end();
                    QVERIFY2(urgent == (op.kind != kProduct), (what + ": op " + std::to_string(op.id)).c_str());
                }
                if (g > 1)
                    QVERIFY2(s.streams == 3 && !s.urgentStreams.empty(), what.c_str());
                // Device 0 likewise: the copies for its next task do not wait for its previous
                // product, and with remote tasks every Winograd product there goes through the
                // workspace M (straight into C it would wait for remote results scattered there).
                int lastDeviceZeroProduct = -1;
                for (const Operation& op : s.ops) {
                    if (op.device != 0)
                        continue;
                    if (op.kind == kCopy) {
                        QVERIFY2(std::find(op.deps.begin(), op.deps.end(), lastDeviceZeroProduct) == op.deps.end(),
                                 (what + ": device 0's copy in waits for its previous product").c_str());
                    }
                    if (op.kind == kProduct && op.block.i == 1) {
                        lastDeviceZeroProduct = op.id;
                        if (d == StrassenDecomposition::Winograd && g > 1)
                            QCOMPARE(QString::fromStdString(s.buffers[std::size_t(op.operands[2].slot)].name),
                                     QStringLiteral("M"));
                    }
                }
                // A remote device with several tasks takes them in two block sets by turns: the
                // operands of its next task come in while the task before multiplies.
                for (int dev = 1; dev < g; ++dev) {
                    std::vector<int> inCopies, deviceProducts;
                    for (const Operation& op : s.ops) {
                        if (op.device != dev)
                            continue;
                        if (op.kind == kCopy && op.queue == Queue::H2D)
                            inCopies.push_back(op.id);
                        if (op.kind == kProduct)
                            deviceProducts.push_back(op.id);
                    }
                    QCOMPARE(inCopies.size(), 2 * deviceProducts.size());
                    for (std::size_t t = 1; t < deviceProducts.size(); ++t)
                        for (std::size_t k = 2 * t; k < 2 * t + 2; ++k) {
                            const std::vector<int>& deps = s.ops[std::size_t(inCopies[k])].deps;
                            QVERIFY2(std::find(deps.begin(), deps.end(), deviceProducts[t - 1]) == deps.end(),
                                     (what + ": a copy in waits for the device's previous product").c_str());
                        }
                }
                const int tasks = d == StrassenDecomposition::TwoD ? 8 : 7;
                QCOMPARE(products, tasks);
                // One GEMM per task wherever it runs: a device-0 task with several C targets
                // multiplies once into the leaf workspace and adds it into each.
                QCOMPARE(gemmCalls, tasks);
                QCOMPARE(int(devices.size()), std::min(g, tasks));
                // Each remote task: its two operand blocks out, its result back.
                int remote = 0;
                for (int t = 0; t < tasks; ++t)
                    remote += t % g != 0;
                QCOMPARE(copies - privateCopies, 3 * remote);
                if (d == StrassenDecomposition::TwoD)
                    QCOMPARE(privateCopies, 0);
                const StrassenResult r = run(c);
                QVERIFY2(strassenOutcome(r) == "ok" && r.maxErrorC == 0, (what + ": " + strassenOutcome(r) + " " + r.error).c_str());
                QCOMPARE(r.recovery.changedA, std::int64_t(0));
                if (g > 1) {
                    QCOMPARE(int(r.devices.size()), g);
                    QVERIFY2(r.placement.find("emulated on the CPU") != std::string::npos, r.placement.c_str());
                    // Spans on every device and copy lane the schedule uses.
                    std::set<std::pair<int, Queue>> lanes;
                    for (const Span& sp : r.spans)
                        lanes.insert({sp.device, sp.queue});
                    QVERIFY(lanes.count({1, Queue::H2D}) && lanes.count({1, Queue::D2H}) && lanes.count({1, Queue::Compute}));
                    // The record keeps every device and the placement.
                    const std::optional<StrassenResult> back = strassenResultFromJson(strassenRecordJson(r));
                    QVERIFY(back);
                    QCOMPARE(int(back->devices.size()), g);
                    QCOMPARE(back->placement, r.placement);
                }
            }
    }

    // More levels than the decomposition's one: each task runs the variant's recursion on its own
    // blocks and device (seed table 4.3, "Strassen-Winograd + MSMES"), exact on integers, A and B
    // recovered, the top-level chain of sums never waiting for device 0's products.
    void localStrassenInsideEachTask()
    {
        const OpKind kZero = opKindFromString("strassen-zero");
        for (StrassenDecomposition d : {StrassenDecomposition::Winograd, StrassenDecomposition::TwoD})
            for (int g : {1, 2, 3, 7})
                for (StrassenVariant v : {StrassenVariant::Msmes, StrassenVariant::Winograd, StrassenVariant::Accumulate})
                    for (int levels : {2, 3}) {
                        StrassenConfig c = config({68, 52, 36}, levels, v);
                        c.devices = g;
                        c.distribute = true;
                        c.decomposition = d;
                        c.integerInputs = true;
                        const std::string what = std::string(toString(d)) + " G=" + std::to_string(g) + " " +
                                                 std::string(toString(v)) + " L" + std::to_string(levels);
                        const Schedule s = buildStrassenSchedule(c);
                        const std::string why = validateStrassenSchedule(s, c);
                        QVERIFY2(why.empty(), (what + ": " + why).c_str());
                        const int tasks = d == StrassenDecomposition::TwoD ? 8 : 7;
                        int leaves = 0, zeros = 0, remoteSums = 0;
                        std::set<int> localProducts;
                        for (const Operation& op : s.ops) {
                            leaves += op.kind == kProduct && op.block.i == levels;
                            zeros += op.kind == kZero;
                            remoteSums += op.kind == kAdd && op.device != 0;
                            if (op.kind == kProduct && op.device == 0 && op.block.i >= 1)
                                localProducts.insert(op.id);
                            if (op.kind == kAdd && op.block.i == 0)
                                for (int dep : op.deps)
                                    QVERIFY2(!localProducts.count(dep), (what + ": a top-level sum waits for device 0's product").c_str());
                        }
                        int leavesPerTask = 1;
                        for (int l = 1; l < levels; ++l)
                            leavesPerTask *= 7;
                        QCOMPARE(leaves, tasks * leavesPerTask);
                        QCOMPARE(zeros, tasks);  // every task's result block starts at zero
                        QVERIFY2((remoteSums > 0) == (g > 1), what.c_str());  // the remote devices sum too
                        const StrassenResult r = run(c);
                        QVERIFY2(strassenOutcome(r) == "ok" && r.maxErrorC == 0, (what + ": " + strassenOutcome(r) + " " + r.error).c_str());
                        QCOMPARE(r.recovery.changedA, std::int64_t(0));
                        QCOMPARE(r.recovery.changedB, std::int64_t(0));
                        QCOMPARE(r.levels, levels);
                    }
    }

    // The schedule model of bench multi-gpu-strassen on rates chosen so that only GEMMs count.
    void scheduleModelCountsTheBusiestGpu()
    {
        const strassen::ScheduleRates rates{1.0, 1e12, 1e12, 1e12};
        auto model = [&](StrassenDecomposition d, int g, std::vector<int> gpuOf) {
            StrassenConfig c = config({64, 64, 64}, 1, StrassenVariant::Msmes);
            c.devices = g;
            c.distribute = true;
            c.decomposition = d;
            return strassen::scheduleModelSeconds(buildStrassenSchedule(c), 4, gpuOf, rates);
        };
        // 2D: 8 GEMMs on one GPU, 4 on each of two, all 8 again for two logical devices of one GPU.
        QCOMPARE(qRound(model(StrassenDecomposition::TwoD, 1, {0})), 8);
        QCOMPARE(qRound(model(StrassenDecomposition::TwoD, 2, {0, 1})), 4);
        QCOMPARE(qRound(model(StrassenDecomposition::TwoD, 2, {0, 0})), 8);
        QCOMPARE(qRound(model(StrassenDecomposition::TwoD, 7, {0, 1, 2, 3, 4, 5, 6})), 2);
        // Winograd: every task one GEMM (a local one with several targets into the leaf workspace,
        // then a scatter), so 7 on one device and device 0's 4 of them on two.
        QCOMPARE(qRound(model(StrassenDecomposition::Winograd, 1, {0})), 7);
        QCOMPARE(qRound(model(StrassenDecomposition::Winograd, 2, {0, 1})), 4);
        // The issue's model: ceil(tasks / G) rounds, no link on one device.
        QCOMPARE(strassen::issueModelSeconds(1, 7, 15, 1.0, 0, 1, 1), 7.0);
        QCOMPARE(strassen::issueModelSeconds(2, 7, 15, 1.0, 0, 1, 1), 4.0);
        QCOMPARE(strassen::issueModelSeconds(7, 7, 15, 1.0, 0, 1, 1), 1.0);
        QVERIFY(strassen::issueModelSeconds(2, 8, 4, 1.0, 1e9, 1e3, 100) > 4.0);
    }

    void distinctGpusFirstRepeatedOnlyWhenFewer()
    {
        QCOMPARE(strassenDeviceOrdinals(0, 2, 2), (std::vector<int>{0, 1}));
        QCOMPARE(strassenDeviceOrdinals(1, 2, 2), (std::vector<int>{1, 0}));
        QCOMPARE(strassenDeviceOrdinals(2, 4, 3), (std::vector<int>{2, 0, 1}));
        QCOMPARE(strassenDeviceOrdinals(0, 8, 7), (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
        QCOMPARE(strassenDeviceOrdinals(0, 1, 2), (std::vector<int>{0, 0}));
        QCOMPARE(strassenDeviceOrdinals(1, 2, 7), (std::vector<int>{1, 0, 1, 0, 1, 0, 1}));
        QCOMPARE(strassenDeviceOrdinals(-1, 3, 2), (std::vector<int>{0, 1}));
        QVERIFY(strassenDeviceOrdinals(0, 0, 2).empty());
        auto gpu = [](int ordinal) {
            DeviceInfo d;
            d.backend = BackendKind::Cuda;
            d.index = ordinal;
            return d;
        };
        QCOMPARE(strassenPlacement({gpu(0), gpu(1)}, 2), std::string("2 devices on 2 GPUs (CUDA ordinals 0, 1)"));
        QVERIFY(strassenPlacement({gpu(0), gpu(0)}, 2).starts_with("2 devices emulated on 1 GPU (CUDA ordinals 0, 0"));
        QVERIFY(strassenPlacement({gpu(1), gpu(0), gpu(1)}, 3).starts_with("3 devices emulated on 2 GPUs"));
    }

    // A product fault inside a decomposition task (one GEMM on a remote device, or a leaf of a
    // task's local Strassen) is placed right after that product, on its device, in the task's
    // blocks, and reaches C with the task's result: C's checks find it and C ends right.
    void productFaultsInsideDecompositionTasks()
    {
        const OpKind kInject = opKindFromString("strassen-inject");
        for (int levels : {1, 2})
            for (int g : {2, 3})
                for (int k : {0, 1, 2, 5, 9, 30}) {
                    if (levels == 1 && k >= 7)
                        continue;
                    StrassenConfig c = config({64, 64, 64}, levels, StrassenVariant::Accumulate, Precision::F64);
                    c.devices = g;
                    c.distribute = true;
                    c.faults = {{StrassenFault::Where::Product, k, 0}};
                    const std::string what = "L" + std::to_string(levels) + " G=" + std::to_string(g) + " product:" +
                                             std::to_string(k);
                    const Schedule s = buildStrassenSchedule(c);
                    QVERIFY2(validateStrassenSchedule(s, c).empty(), what.c_str());
                    int productDevice = -1, injectDevice = -2, productId = -1, injectId = -1;
                    for (const Operation& op : s.ops) {
                        if (op.kind == kProduct && op.block.k == k && productId < 0) {
                            productDevice = op.device;
                            productId = op.id;
                        }
                        if (op.kind == kInject && op.aux == 0) {
                            injectDevice = op.device;
                            injectId = op.id;
                        }
                    }
                    QVERIFY2(productId >= 0 && injectId > productId, what.c_str());
                    QVERIFY2(injectDevice == productDevice, what.c_str());
                    const StrassenResult r = run(c);
                    bool caught = false;
                    for (const StrassenCheck& check : r.checks)
                        caught |= check.verdict != "clean";
                    QVERIFY2(caught, what.c_str());
                    QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r) + " " + r.error).c_str());
                    QVERIFY2(r.relErrorC < 1e-10, (what + ": " + std::to_string(r.relErrorC)).c_str());
                }
    }

    // A decomposition places its faults between stages as one device does: A / B before the first
    // task reads them (after Winograd's first sums; 2D has none), C after the first product stage
    // (2D: after its tasks); never after the last product, where --exact-restore erased an operand
    // fault without a trace (devices 3, a:1: op 47 of 51, every check clean).
    void decompositionFaultsLandBetweenStages()
    {
        const OpKind kInject = opKindFromString("strassen-inject");
        const OpKind kCopy = opKindFromString("strassen-copy");
        for (StrassenDecomposition d : {StrassenDecomposition::TwoD, StrassenDecomposition::Winograd})
            for (int g : {1, 2, 3})
                for (bool exact : {false, true})
                    for (StrassenFault::Where where : {StrassenFault::Where::A, StrassenFault::Where::B, StrassenFault::Where::C})
                        for (int q : {0, 1, 3}) {
                            StrassenConfig c = config({64, 64, 64}, 1, StrassenVariant::Msmes);
                            c.devices = g;
                            c.distribute = true;
                            c.decomposition = d;
                            c.exactRestore = exact;
                            c.faults = {{where, q, 0}};
                            const std::string what = std::string(toString(d)) + " G=" + std::to_string(g) +
                                                     (exact ? " exact " : " ") + faultPlace(c.faults[0]);
                            const Schedule s = buildStrassenSchedule(c);
                            QVERIFY2(validateStrassenSchedule(s, c).empty(), what.c_str());
                            int inject = -1, firstTask = -1, lastProduct = -1;
                            for (const Operation& op : s.ops) {
                                if (op.kind == kInject)
                                    inject = op.id;
                                if ((op.kind == kProduct || op.kind == kCopy) && firstTask < 0)
                                    firstTask = op.id;
                                if (op.kind == kProduct)
                                    lastProduct = op.id;
                            }
                            QVERIFY2(inject >= 0, what.c_str());
                            if (where != StrassenFault::Where::C)
                                QVERIFY2(inject < firstTask, what.c_str());
                            else if (d == StrassenDecomposition::Winograd)
                                QVERIFY2(inject > firstTask && inject < lastProduct, what.c_str());
                            else
                                QVERIFY2(inject > lastProduct, what.c_str());  // 2D: one product stage
                            const StrassenResult r = run(c);
                            bool caught = false;
                            for (const StrassenCheck& k : r.checks)
                                caught |= k.verdict != "clean";
                            QVERIFY2(caught, what.c_str());
                            QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r) + " " + r.error).c_str());
                            QVERIFY2(r.relErrorC < 1e-4, (what + ": " + std::to_string(r.relErrorC)).c_str());
                        }
    }

    // Operand faults of a run without levels land before its one product, so an exact restore
    // cannot erase them either.
    void operandFaultsBeforeTheOnlyProduct()
    {
        for (StrassenFault::Where where : {StrassenFault::Where::A, StrassenFault::Where::B}) {
            StrassenConfig c = config({48, 40, 56}, 0, StrassenVariant::Msmes);
            c.exactRestore = true;
            c.faults = {{where, 2, 0}};
            const StrassenResult r = run(c);
            bool caught = false;
            for (const StrassenCheck& k : r.checks)
                caught |= k.where == "c" && k.verdict == "recomputed";
            QVERIFY2(caught, faultPlace(c.faults[0]).c_str());
            QCOMPARE(strassenOutcome(r), std::string("ok"));
        }
    }

    // product:K past the last product is refused with the count, not placed into C at the end.
    void productFaultPastTheLastIsRefused()
    {
        StrassenConfig c = config({131, 97, 113}, 2, StrassenVariant::Msmes);
        c.faults = {{StrassenFault::Where::Product, 1000, 0}};
        try {
            buildStrassenSchedule(c);
            QFAIL("product:1000 of 52 accepted");
        } catch (const InputError& e) {
            const std::string why = e.what();
            QVERIFY2(why.find("52 leaf products") != std::string::npos, why.c_str());
        }
        c.faults = {{StrassenFault::Where::Product, 51, 0}};
        QVERIFY(validateStrassenSchedule(buildStrassenSchedule(c), c).empty());
        // A decomposition counts its tasks' products: 3 fringe products and 7 one-GEMM tasks.
        c.devices = 2;
        c.distribute = true;
        c.levels = 1;
        c.faults = {{StrassenFault::Where::Product, 9, 0}};
        QVERIFY(validateStrassenSchedule(buildStrassenSchedule(c), c).empty());
        c.faults = {{StrassenFault::Where::Product, 10, 0}};
        QVERIFY_THROWS_EXCEPTION(InputError, buildStrassenSchedule(c));
    }

    // ":DELTA" is used as given, 0 included (as run's --inject-at R,C:0); without it the run picks
    // 1000 x the typical value. The record keeps the delta to the last bit.
    void faultDeltaAsGiven()
    {
        const StrassenFault zero = parseStrassenFault("c:1:0");
        QVERIFY(zero.deltaGiven);
        QCOMPARE(zero.delta, 0.0);
        QCOMPARE(toString(zero), std::string("c:1:0"));
        QVERIFY(!parseStrassenFault("c:1").deltaGiven);
        QCOMPARE(parseStrassenFault(toString(parseStrassenFault("a:2:1e-9"))).delta, 1e-9);
        StrassenConfig c = config({64, 64, 64}, 1, StrassenVariant::Msmes);
        c.faults = {zero};
        const StrassenResult r = run(c);
        QCOMPARE(strassenOutcome(r), std::string("ok"));
        for (const StrassenCheck& k : r.checks)
            QCOMPARE(k.verdict, std::string("clean"));  // nothing was added
        QCOMPARE(toString(r.config.faults[0]), std::string("c:1:0"));
        c.faults = {parseStrassenFault("c:1")};
        const StrassenResult defaulted = run(c);
        QVERIFY(defaulted.config.faults[0].delta != 0);
        bool corrected = false;
        for (const StrassenCheck& k : defaulted.checks)
            corrected |= k.verdict == "corrected";
        QVERIFY(corrected);
    }

    // Every fault into C or a leaf product is an event of the run with its cell's value before and
    // after (the record's events.injections, the report's "1.929 -> 301.9"), on one device and
    // inside a decomposition's tasks; A's and B's faults are their checks' to report. The record
    // keeps the events, and one whose event names no fault of its own is refused.
    void faultEventsSayWhatEachFaultChanged()
    {
        StrassenConfig c = config({130, 128, 126}, 1, StrassenVariant::Msmes);
        for (const char* f : {"c:3,5:300", "product:2:50", "c:1", "a:2:40", "b:1,2:9"})
            c.faults.push_back(parseStrassenFault(f));
        for (int levels : {1, 2})
            for (int devices : {1, 2})
                for (Precision p : {Precision::F32, Precision::F64}) {
                    c.levels = levels;
                    c.devices = devices;
                    c.distribute = devices > 1;
                    c.precision = p;
                    const std::string what = "L" + std::to_string(levels) + " G=" + std::to_string(devices) + " " +
                                             std::string(toString(p));
                    const StrassenResult r = run(c);
                    QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r) + " " + r.error).c_str());
                    QVERIFY2(test::faultEventsMismatch(r).empty(), (what + ": " + test::faultEventsMismatch(r)).c_str());
                    QCOMPARE(r.injections.size(), std::size_t(3));
                    const std::optional<StrassenResult> back = strassenResultFromJson(strassenRecordJson(r));
                    QVERIFY(back);
                    QCOMPARE(back->injections.size(), r.injections.size());
                    for (std::size_t e = 0; e < r.injections.size(); ++e) {
                        QCOMPARE(back->injections[e].injection.block.k, r.injections[e].injection.block.k);
                        QCOMPARE(back->injections[e].injection.before, r.injections[e].injection.before);
                        QCOMPARE(back->injections[e].injection.after, r.injections[e].injection.after);
                    }
                    const std::string report = formatStrassenReport(r);
                    QVERIFY2(report.find("injected at c:3,5:300: ") != std::string::npos, report.c_str());
                }
        // Bit flips: the cell with its bit flipped, NaN included (bit 30 of an FP32 value near 1).
        c = config({128, 128, 128}, 1, StrassenVariant::Msmes);
        c.faultModel = parseFaultModelSpec("bitflip:30");
        c.faults = {parseStrassenFault("c:3,5"), parseStrassenFault("product:1")};
        const StrassenResult flipped = run(c);
        QVERIFY2(test::faultEventsMismatch(flipped).empty(), test::faultEventsMismatch(flipped).c_str());
        QCOMPARE(flipped.injections.size(), std::size_t(2));
        QVERIFY(flipped.injections[0].injection.model == FaultModel::BitFlip);
        QCOMPARE(flipped.injections[0].injection.bit, 30);
        // A record someone edited: an event naming fault 5 of 2.
        nlohmann::json edited = nlohmann::json::parse(strassenRecordJson(flipped));
        edited["events"]["injections"][1]["injection"]["block"]["k"] = 5;
        try {
            strassenResultFromJson(edited.dump());
            QFAIL("an event of fault 5 in a record of 2 faults was read");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("events.injections[1].injection.block") != std::string::npos, e.what());
        }
    }

    void everyFaultPositionIsDetectedAndCorrected()
    {
        std::vector<StrassenFault> faults;
        for (int k : {0, 3, 6, 20, 48})
            faults.push_back({StrassenFault::Where::Product, k, 0});
        for (int q = 0; q < 4; ++q) {
            faults.push_back({StrassenFault::Where::C, q, 0});
            faults.push_back({StrassenFault::Where::A, q, 0});
            faults.push_back({StrassenFault::Where::B, q, 0});
        }
        for (StrassenVariant v : kVariants)
            for (const StrassenFault& f : faults) {
                StrassenConfig c = config({64, 64, 64}, 2, v);
                c.faults = {f};
                const StrassenResult r = run(c);
                const std::string what = std::string(toString(v)) + " " + toString(f);
                bool caught = false;
                for (const StrassenCheck& k : r.checks)
                    caught |= k.verdict != "clean";
                QVERIFY2(caught, what.c_str());
                QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r)).c_str());
                QVERIFY2(r.relErrorC < 1e-4, (what + ": " + std::to_string(r.relErrorC)).c_str());
            }
    }
};

QTEST_APPLESS_MAIN(TestStrassen)
#include "tst_strassen.moc"
