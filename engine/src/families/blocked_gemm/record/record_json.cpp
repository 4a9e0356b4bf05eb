// RunRecord <-> versioned JSON: the envelope by core (core/record/envelope_json.hpp), the
// "blocked_gemm" section (config, plan, fault report, reference check, repairs) here. Every field
// is written; reading names the field that is missing or malformed, and refuses records from a
// newer format than this build understands. Format 1 (before families) had the GEMM parts at the
// top level and a single device; it is still read (readVersion1).
#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/fault_models.hpp"

#include "core/record/envelope_json.hpp"
#include "families/blocked_gemm/ops.hpp"
#include "families/blocked_gemm/record/record_validate.hpp"
#include "families/blocked_gemm/record/repair_json.hpp"

namespace gigacheck {

using namespace recordjson;

namespace {

constexpr EnumName<BufferRole> kBufferRoles[] = {{BufferRole::A, "A"},
                                                  {BufferRole::B, "B"},
                                                  {BufferRole::C, "C"},
                                                  {BufferRole::Aux, "aux"},
                                                  {BufferRole::Other, "other"}};

}  // namespace

// Only the record names buffer roles.
template <> const EnumTable<BufferRole>& enumTable<BufferRole>()
{
    static const EnumTable<BufferRole> table{"buffer role", kBufferRoles};
    return table;
}

namespace {

// ---- writing -------------------------------------------------------------------------------

Json write(const Shape& s) { return {{"m", s.m}, {"n", s.n}, {"q", s.q}}; }


Json write(const FaultSpec& f)
{
    Json at = Json::array();
    for (const FaultAt& a : f.at) {
        at.push_back({{"row", a.row},
                      {"col", a.col},
                      {"delta", a.delta ? number(*a.delta) : Json()},
                      {"step", a.step ? Json(*a.step) : Json()}});
    }
    Json out = {{"count", f.count},
            {"collinear", toString(f.collinear)},
            {"at", at},
            {"model", toString(f.model)},
            {"bit", f.bit},
            {"target", toString(f.target)},
            {"scope", toString(f.scope)},
            {"seed", f.seed}};
    // The fault models beside one cell (gigacheck/fault_models.hpp), written only when used.
    if (f.extent != FaultExtent::Cell)
        out["extent"] = faultExtentText(f.extent, f.extentLength);
    if (f.bit2 >= 0)
        out["bit2"] = f.bit2;
    return out;
}

Json write(const RunConfig& c)
{
    Json out = {{"shape", write(c.shape)},
            {"precision", toString(c.precision)},
            {"distribution", toString(c.distribution)},
            {"seed", c.seed},
            {"backend", toString(c.backend)},
            {"device", c.device},
            {"strategy", toString(c.strategy)},
            {"mem_cap_bytes", c.memCapBytes},
            {"abft", c.abft},
            {"gemm", toString(c.gemm)},
            {"tile", c.tile},
            {"faults", write(c.faults)},
            {"reference", toString(c.reference)},
            {"threshold_lambda", number(c.thresholdLambda)},
            {"plan_by_cost_model", c.planByCostModel},
            {"h2d_staging", toString(c.h2dStaging)}};
    if (c.devices > 1)  // records of one device stay as they were
        out["devices"] = c.devices;
    return out;
}

Json write(const Plan& p)
{
    Json buffers = Json::array();
    for (const BufferSpec& b : p.buffers) {
        buffers.push_back({{"name", b.name},
                           {"role", nameOf(b.role)},
                           {"rows", b.rows},
                           {"cols", b.cols},
                           {"ld", b.ld},
                           {"bytes", b.bytes}});
    }
    Json plan = {{"shape", write(p.shape)},
                 {"precision", toString(p.precision)},
                 {"strategy", toString(p.strategy)},
                 {"abft", p.abft},
                 {"cap_bytes", p.capBytes},
                 {"split_m", p.splitM},
                 {"split_n", p.splitN},
                 {"split_q", p.splitQ},
                 {"block_m", p.blockM},
                 {"block_n", p.blockN},
                 {"block_q", p.blockQ},
                 {"buffers", buffers},
                 {"bytes_needed", p.bytesNeeded},
                 {"explanation", p.explanation}};
    // Unequal blocks only (older readers ignore the keys and see equal blocks of block_m / block_q).
    if (!p.rowStarts.empty())
        plan["row_starts"] = p.rowStarts;
    if (!p.colStarts.empty())
        plan["col_starts"] = p.colStarts;
    return plan;
}

Json write(const FaultReport& f)
{
    return {{"injected", f.injected},
            {"detected", f.detected},
            {"corrected", f.corrected},
            {"corrected_by_recompute", f.correctedByRecompute},
            {"uncorrectable", f.uncorrectable},
            {"below_threshold", f.belowThreshold},
            {"missed", f.missed},
            {"false_positives", f.falsePositives},
            {"blocks_clean", f.blocksClean},
            {"blocks_corrected", f.blocksCorrected},
            {"blocks_uncorrectable", f.blocksUncorrectable},
            {"max_threshold", number(f.maxThreshold)},
            {"max_clean_residual_ratio", number(f.maxCleanResidualRatio)}};
}

Json write(const ReferenceCheck& r)
{
    return {{"mode", toString(r.mode)},
            {"rows_checked", r.rowsChecked},
            {"mismatches", r.mismatches},
            {"max_abs_error", number(r.maxAbsError)},
            {"max_rel_error", number(r.maxRelError)},
            {"passed", r.passed}};
}

// ---- reading -------------------------------------------------------------------------------

Shape readShape(const Node& n)
{
    return {n.get<std::int64_t>("m"), n.get<std::int64_t>("n"), n.get<std::int64_t>("q")};
}



FaultSpec readFaultSpec(const Node& n)
{
    FaultSpec f;
    f.count = n.get<int>("count");
    f.collinear = n.enumeration<Collinearity>("collinear");
    for (const Node& a : n.elements("at")) {
        FaultAt at;
        at.row = a.get<std::int64_t>("row");
        at.col = a.get<std::int64_t>("col");
        if (a.has("delta") && !a.child("delta").json().is_null())
            at.delta = a.get<double>("delta");
        if (a.has("step") && !a.child("step").json().is_null())
            at.step = a.get<int>("step");
        f.at.push_back(at);
    }
    f.model = n.enumeration<FaultModel>("model");
    f.bit = n.get<int>("bit");
    f.target = n.enumeration<FaultTarget>("target");
    f.scope = n.enumeration<FaultScope>("scope");
    f.seed = n.get<std::uint64_t>("seed");
    if (n.has("extent"))
        parseFaultExtent(n.get<std::string>("extent"), f.extent, f.extentLength);
    f.bit2 = n.getOr<int>("bit2", -1);
    return f;
}

RunConfig readConfig(const Node& n)
{
    RunConfig c;
    c.shape = readShape(n.child("shape"));
    c.precision = n.enumeration<Precision>("precision");
    c.distribution = n.enumeration<Distribution>("distribution");
    c.seed = n.get<std::uint64_t>("seed");
    c.backend = n.enumeration<BackendKind>("backend");
    c.device = n.getOr<int>("device", -1);  // records before device selection: the first device
    c.devices = n.getOr<int>("devices", 1);
    if (c.devices < 1 || c.devices > kMaxRunDevices)
        throw InputError("record: config.devices must be 1 to " + std::to_string(kMaxRunDevices) + " (got " +
                         std::to_string(c.devices) + ")");
    c.strategy = n.enumeration<StrategyKind>("strategy");
    c.memCapBytes = n.get<std::uint64_t>("mem_cap_bytes");
    c.abft = n.get<bool>("abft");
    c.gemm = n.enumeration<GemmVariant>("gemm");
    c.tile = n.get<int>("tile");
    c.faults = readFaultSpec(n.child("faults"));
    c.reference = n.enumeration<ReferenceMode>("reference");
    c.thresholdLambda = n.get<double>("threshold_lambda");
    c.planByCostModel = n.getOr<bool>("plan_by_cost_model", false);  // records before the planner: false
    // Records before host packing copied every block directly.
    c.h2dStaging = n.has("h2d_staging") ? n.enumeration<H2dStaging>("h2d_staging") : H2dStaging::Direct;
    return c;
}

Plan readPlan(const Node& n)
{
    Plan p;
    p.shape = readShape(n.child("shape"));
    p.precision = n.enumeration<Precision>("precision");
    p.strategy = n.enumeration<StrategyKind>("strategy");
    p.abft = n.get<bool>("abft");
    p.capBytes = n.get<std::uint64_t>("cap_bytes");
    p.splitM = n.get<int>("split_m");
    p.splitN = n.get<int>("split_n");
    p.splitQ = n.get<int>("split_q");
    p.blockM = n.get<std::int64_t>("block_m");
    p.blockN = n.get<std::int64_t>("block_n");
    p.blockQ = n.get<std::int64_t>("block_q");
    for (const Node& b : n.elements("buffers")) {
        BufferSpec s;
        s.name = b.get<std::string>("name");
        s.role = b.enumeration<BufferRole>("role");
        s.rows = b.get<std::int64_t>("rows");
        s.cols = b.get<std::int64_t>("cols");
        s.ld = b.get<std::int64_t>("ld");
        s.bytes = b.get<std::size_t>("bytes");
        p.buffers.push_back(s);
    }
    p.bytesNeeded = n.get<std::size_t>("bytes_needed");
    p.explanation = n.getOr<std::string>("explanation", "");
    if (n.has("row_starts"))
        p.rowStarts = n.list<std::int64_t>("row_starts");
    if (n.has("col_starts"))
        p.colStarts = n.list<std::int64_t>("col_starts");
    return p;
}

FaultReport readFaultReport(const Node& n)
{
    FaultReport f;
    f.injected = n.get<int>("injected");
    f.detected = n.get<int>("detected");
    f.corrected = n.get<int>("corrected");
    f.correctedByRecompute = n.getOr<int>("corrected_by_recompute", 0);  // absent before the repair pass
    f.uncorrectable = n.get<int>("uncorrectable");
    f.belowThreshold = n.get<int>("below_threshold");
    f.missed = n.getOr<int>("missed", 0);  // absent in records written before it was counted
    f.falsePositives = n.get<int>("false_positives");
    f.blocksClean = n.get<int>("blocks_clean");
    f.blocksCorrected = n.get<int>("blocks_corrected");
    f.blocksUncorrectable = n.get<int>("blocks_uncorrectable");
    f.maxThreshold = n.get<double>("max_threshold");
    f.maxCleanResidualRatio = n.get<double>("max_clean_residual_ratio");
    return f;
}

ReferenceCheck readReference(const Node& n)
{
    ReferenceCheck r;
    r.mode = n.enumeration<ReferenceMode>("mode");
    r.rowsChecked = n.get<std::int64_t>("rows_checked");
    r.mismatches = n.get<std::int64_t>("mismatches");
    r.maxAbsError = n.get<double>("max_abs_error");
    r.maxRelError = n.get<double>("max_rel_error");
    r.passed = n.get<bool>("passed");
    return r;
}

// ---- the end-to-end operand checks (optional: written when the backend ran them) ----------

Json write(const OperandCheckReport& o)
{
    Json mismatches = Json::array();
    for (const OperandMismatch& m : o.mismatches)
        mismatches.push_back({{"operand", std::string(1, m.operand)},
                              {"block_row", m.blockRow},
                              {"block_col", m.blockCol},
                              {"product", {{"i", m.product.i}, {"j", m.product.j}, {"k", m.product.k}}},
                              {"lines", m.lines},
                              {"max_residual_ratio", number(m.maxResidualRatio)}});
    return {{"copies_checked", o.copiesChecked},
            {"max_clean_ratio", number(o.maxCleanRatio)},
            {"mismatches", mismatches},
            {"host_elements_restored", o.hostElementsRestored},
            {"host_blocks_unrestorable", o.hostBlocksUnrestorable},
            {"entry_seconds", number(o.entrySeconds)}};
}

void readOperandChecks(const Node& section, RunRecord& r)
{
    if (!section.has("operand_checks"))
        return;
    const Node n = section.child("operand_checks");
    OperandCheckReport& o = r.operandChecks;
    o.ran = true;
    o.copiesChecked = n.get<std::int64_t>("copies_checked");
    o.maxCleanRatio = n.get<double>("max_clean_ratio");
    for (const Node& e : n.elements("mismatches")) {
        OperandMismatch m;
        const std::string operand = e.get<std::string>("operand");
        if (operand != "a" && operand != "b")
            throw InputError("record: operand_checks: operand '" + operand + "' is neither a nor b");
        m.operand = operand[0];
        m.blockRow = e.get<int>("block_row");
        m.blockCol = e.get<int>("block_col");
        const Node product = e.child("product");
        m.product = {product.get<int>("i"), product.get<int>("j"), product.get<int>("k")};
        m.lines = e.list<std::int64_t>("lines");
        m.maxResidualRatio = e.get<double>("max_residual_ratio");
        o.mismatches.push_back(std::move(m));
    }
    o.hostElementsRestored = n.get<std::int64_t>("host_elements_restored");
    o.hostBlocksUnrestorable = n.get<std::int64_t>("host_blocks_unrestorable");
    o.entrySeconds = n.get<double>("entry_seconds");
}

// ---- the blocked GEMM family's section ----------------------------------------------------

Json writeBlockedGemmSection(const RunRecord& r)
{
    Json section = {{"config", write(r.config)},
                    {"plan", write(r.plan)},
                    {"faults", write(r.faults)},
                    {"reference", write(r.reference)},
                    {"repairs", writeRepairs(r.repairs)}};
    if (!r.inputs.empty()) {
        Json inputs = Json::array();
        for (const InputMatrix& m : r.inputs)
            inputs.push_back({{"operand", m.operand},
                              {"file", m.file},
                              {"rows", m.rows},
                              {"cols", m.cols},
                              {"dtype", m.dtype},
                              {"order", m.fortranOrder ? "F" : "C"}});
        section["inputs"] = inputs;
    }
    if (r.operandChecks.ran)
        section["operand_checks"] = write(r.operandChecks);
    if (!r.predictedSpans.empty())
        section["prediction"] = {{"total_seconds", number(r.predictedSeconds)},
                                 {"source", r.predictionSource},
                                 {"spans", writeAll(r.predictedSpans)}};
    return section;
}

// Optional: records from before the cost model have no "prediction".
void readPrediction(const Node& n, RunRecord& r)
{
    if (!n.has("prediction"))
        return;
    const Node p = n.child("prediction");
    r.predictedSeconds = p.get<double>("total_seconds");
    r.predictionSource = p.getOr<std::string>("source", "");
    for (const Node& s : p.elements("spans"))
        r.predictedSpans.push_back(readSpan(s));
}

// Optional: records of generated inputs (and every record before imports) have no "inputs".
void readInputs(const Node& n, RunRecord& r)
{
    if (!n.has("inputs"))
        return;
    for (const Node& e : n.elements("inputs")) {
        InputMatrix m;
        m.operand = e.get<std::string>("operand");
        m.file = e.get<std::string>("file");
        m.rows = e.get<std::int64_t>("rows");
        m.cols = e.get<std::int64_t>("cols");
        m.dtype = e.get<std::string>("dtype");
        const std::string order = e.getOr<std::string>("order", "C");
        if (m.operand != "A" && m.operand != "B")
            throw InputError("record: inputs: operand '" + m.operand + "' is neither A nor B");
        if (order != "C" && order != "F")
            throw InputError("record: inputs: order '" + order + "' is neither C nor F");
        if (m.rows <= 0 || m.cols <= 0)
            throw InputError("record: inputs: " + m.operand + " has an empty shape");
        m.fortranOrder = order == "F";
        r.inputs.push_back(std::move(m));
    }
}

void readBlockedGemmSection(const Node& n, RunRecord& r)
{
    readInputs(n, r);
    r.config = readConfig(n.child("config"));
    r.plan = readPlan(n.child("plan"));
    r.faults = readFaultReport(n.child("faults"));
    r.reference = readReference(n.child("reference"));
    r.repairs = readRepairs(n);  // absent in records from before the repair pass: none
    readOperandChecks(n, r);     // absent where the backend did not compare operand copies
    readPrediction(n, r);
}

// Format 1: the GEMM parts at the top level, one device, events beside the spans.
RunRecord readVersion1(const Node& root)
{
    RunRecord r;
    r.formatVersion = 1;
    r.toolVersion = root.getOr<std::string>("tool_version", "");
    r.createdAt = root.getOr<std::string>("created_at", "");
    r.status = root.get<std::string>("status");
    r.error = root.getOr<std::string>("error", "");
    r.config = readConfig(root.child("config"));
    r.devices = {readDevice(root.child("device"))};
    r.plan = readPlan(root.child("plan"));
    r.metrics = readMetrics(root.child("metrics"));
    r.faults = readFaultReport(root.child("faults"));
    r.reference = readReference(root.child("reference"));
    for (const Node& n : root.elements("injections"))
        r.injections.push_back(readInjectEvent(n));
    for (const Node& n : root.elements("verifications"))
        r.verifications.push_back(readVerifyEvent(n));
    for (const Node& n : root.elements("spans"))
        r.spans.push_back(readSpan(n));
    r.repairs = readRepairs(root);
    return r;
}

RunRecord readVersion2(const Node& root)
{
    RunRecord r;
    readEnvelope(root, r);
    readBlockedGemmSection(familySection(root, blocked_gemm::kFamilyName), r);
    return r;
}

}  // namespace

std::string toJson(const RunRecord& r, int indent)
{
    if (r.family != blocked_gemm::kFamilyName)
        throw InputError("record: a blocked GEMM record names family '" + r.family + "'");
    return dumpRecord(writeRecordDocument(r, writeBlockedGemmSection(r)), indent);
}

RunRecord recordFromJson(const std::string& text)
{
    const recordjson::RecordDocument doc = recordjson::readRecordDocument(text);
    const Node root = doc.root();
    RunRecord r = doc.formatVersion == 1 ? readVersion1(root) : readVersion2(root);
    recordcheck::validate(r);  // nothing uses or draws what the record claims before this
    return r;
}

void saveRecord(const RunRecord& r, const std::string& path) { saveRecordText(toJson(r), path); }

RunRecord loadRecord(const std::string& path)
{
    const std::string text = loadRecordText(path);
    try {
        return recordFromJson(text);
    } catch (const InputError& e) {
        throw InputError(path + ": " + e.what());
    }
}

}  // namespace gigacheck
