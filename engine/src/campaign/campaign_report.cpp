// A campaign as text (outcome table with 95 % Wilson intervals, tables by bit, target, strategy and level)
// and as CSV (one row per run; the summary in a second file).
#include "gigacheck/campaign.hpp"
#include "campaign/family_campaign.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace gigacheck {

namespace {

std::string format(const char* pattern, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, pattern, v);
    return buf;
}

std::string padLeft(const std::string& s, std::size_t width)
{
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string padRight(const std::string& s, std::size_t width)
{
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

// Short column heads of the group tables, in kOutcomes order.
constexpr const char* kHeads[kOutcomeCount] = {"masked", "corrected", "recompute", "DUE", "SDC", "false-alarm"};

void writeGroups(std::ostream& out, const char* title, const std::vector<CampaignGroup>& groups)
{
    if (groups.empty())
        return;
    out << title << "\n  " << padRight("", 14) << padLeft("runs", 7);
    for (const char* head : kHeads)
        out << padLeft(head, 12);
    out << "\n";
    for (const CampaignGroup& g : groups) {
        out << "  " << padRight(g.key, 14) << padLeft(std::to_string(g.counts.total), 7);
        for (Outcome o : kOutcomes)
            out << padLeft(std::to_string(g.counts[o]), 12);
        out << "\n";
    }
}

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string quoted = "\"";
    for (char c : s)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string general(double v) { return format("%.9g", v); }

}  // namespace

std::string formatCampaignReport(const CampaignResult& r)
{
    const CampaignConfig& c = r.config;
    std::ostringstream out;
    out << "GIGACHECK CAMPAIGN =====\n";
    const RunRange range = r.shard ? shardRuns(c.runs, *r.shard) : RunRange{0, c.runs};
    out << "  " << r.runs.size() << " run(s)";
    if (r.interrupted)
        out << " of " << range.end - range.begin << " (interrupted)";
    out << ": " << shapeText(c.shape) << " " << toString(c.type) << ", family " << c.family << ", scheme "
        << c.scheme;
    out << campaignFamilyOf(c).settingsText(c);
    out << "\n";
    out << "  fault " << campaignFaultText(c);
    if (c.inject)
        out << " into " << toString(c.target) << ", " << c.faultsPerRun << " per run";
    out << ", seed " << c.seed << "\n";
    out << "  device: " << r.device.name << " (" << toString(r.device.backend) << ")\n";
    if (r.shard)  // the tables below are this slice's; the campaign's come from the merge
        out << "  shard " << r.shard->index << "/" << r.shard->count << ": runs " << range.begin << "-"
            << range.end - 1 << " of the campaign's " << c.runs
            << " (gigacheck campaign merge joins the shards into the campaign)\n";
    out << "Outcomes (95 % Wilson interval):\n";
    const std::int64_t n = r.summary.all.total;
    for (Outcome o : kOutcomes) {
        const std::int64_t k = r.summary.all[o];
        const Interval ci = wilsonInterval(k, n);
        out << "  " << padRight(std::string(describe(o)), 30) << padLeft(std::to_string(k), 7)
            << padLeft(format("%.1f", n ? 100.0 * double(k) / double(n) : 0.0), 7) << " %  ["
            << format("%.1f", 100 * ci.low) << ", " << format("%.1f", 100 * ci.high) << "] %\n";
    }
    writeGroups(out, "By bit:", r.summary.byBit);
    writeGroups(out, "By target:", r.summary.byTarget);
    writeGroups(out, "By strategy:", r.summary.byStrategy);
    writeGroups(out, "By level:", r.summary.byLevel);
    if (r.summary.maxCleanResidualRun >= 0)
        out << "Largest clean residual / threshold: " << format("%.3g", r.summary.maxCleanResidualRatio) << " (run "
            << r.summary.maxCleanResidualRun << "): the checks' margin against false alarms (an alarm at 1)\n";
    // What the scheme can promise for the faults of this campaign.
    if (c.inject)
        out << campaignFamilyOf(c).promise(c);
    const std::int64_t sdc = r.summary.all[Outcome::SilentCorruption];
    const std::int64_t alarms = r.summary.all[Outcome::FalseAlarm];
    out << "Verdict: " << (sdc == 0 ? std::string("no silent data corruption")
                                    : std::to_string(sdc) + " SILENT DATA CORRUPTION(S)")
        << ", " << (alarms == 0 ? std::string("no false alarm") : std::to_string(alarms) + " FALSE ALARM(S)")
        << " in " << n << " run(s)\n";
    return out.str();
}

std::string campaignRunsCsv(const CampaignResult& r)
{
    std::ostringstream out;
    out << "run,seed,strategy,type,gemm,target,fault,bit,positions,block,outcome,status,injected,detected,corrected,"
           "corrected_by_recompute,uncorrectable,false_positives,reference_passed,max_error_over_tolerance,"
           "seconds,reproduce\n";
    for (const CampaignRun& run : r.runs) {
        std::string positions, block;
        for (const Injection& inj : run.applied) {
            if (!positions.empty())
                positions += ' ';
            positions += inj.globalRow >= 0 ? std::to_string(inj.globalRow) : std::string("checksum");
            positions += ':';
            positions += inj.globalCol >= 0 ? std::to_string(inj.globalCol) : std::string("checksum");
            if (block.empty())
                block = std::to_string(inj.block.i) + ":" + std::to_string(inj.block.j) + ":" +
                        std::to_string(inj.block.k);
        }
        out << run.index << ',' << run.seed << ',' << toString(run.strategy) << ',' << toString(r.config.type) << ','
            << (r.device.backend == BackendKind::Cpu ? std::string_view("openblas") : toString(campaignGemm(r.config.type))) << ',' << targetKey(run) << ','
            << (r.config.inject ? std::string(toString(r.config.model)) : std::string("none")) << ',' << run.bit
            << ',' << positions << ',' << block << ',' << toString(run.outcome) << ',' << run.status << ','
            << run.faults.injected << ',' << run.faults.detected << ',' << run.faults.corrected << ','
            << run.faults.correctedByRecompute << ',' << run.faults.uncorrectable << ','
            << run.faults.falsePositives << ',' << (run.referencePassed ? 1 : 0) << ','
            << general(run.maxErrorOverTolerance) << ',' << general(run.seconds) << ','
            << csvField(reproduceCommand(r.config, run)) << '\n';
    }
    return out.str();
}

std::string campaignSummaryCsv(const CampaignResult& r)
{
    std::ostringstream out;
    out << "group,key,outcome,count,runs,fraction,ci95_low,ci95_high\n";
    const auto rows = [&](const char* group, const std::string& key, const OutcomeCounts& counts) {
        for (Outcome o : kOutcomes) {
            const Interval ci = wilsonInterval(counts[o], counts.total);
            out << group << ',' << csvField(key) << ',' << toString(o) << ',' << counts[o] << ',' << counts.total
                << ',' << general(counts.total ? double(counts[o]) / double(counts.total) : 0.0) << ','
                << general(ci.low) << ',' << general(ci.high) << '\n';
        }
    };
    rows("all", "all", r.summary.all);
    for (const CampaignGroup& g : r.summary.byBit)
        rows("bit", g.key, g.counts);
    for (const CampaignGroup& g : r.summary.byTarget)
        rows("target", g.key, g.counts);
    for (const CampaignGroup& g : r.summary.byStrategy)
        rows("strategy", g.key, g.counts);
    for (const CampaignGroup& g : r.summary.byLevel)
        rows("level", g.key, g.counts);
    return out.str();
}

}  // namespace gigacheck
