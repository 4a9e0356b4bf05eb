// Campaigns spread over machines: which runs shard K of N holds, and the merge of the shard files
// back into the one campaign the whole run gives. The merge refuses anything that would make its
// summary differ from the whole run's: another campaign's shard, a shard twice or missing, a
// shard cut short or holding other runs.
#include "gigacheck/campaign.hpp"

#include "core/timestamp.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace gigacheck {

namespace {

std::string shardText(const CampaignShard& s) { return std::to_string(s.index) + "/" + std::to_string(s.count); }

// The first field in which two configurations differ ("seed 1 vs 2"); empty when they agree.
// Compared as the files write them, so a field added to the file is compared too.
std::string configDifference(const CampaignConfig& a, const CampaignConfig& b)
{
    const auto ja = nlohmann::ordered_json::parse(campaignConfigJson(a));
    const auto jb = nlohmann::ordered_json::parse(campaignConfigJson(b));
    for (const auto& [key, value] : ja.items()) {
        const auto other = jb.find(key);
        if (other == jb.end())
            return key + " " + value.dump() + " vs none";
        if (*other != value)
            return key + " " + value.dump() + " vs " + other->dump();
    }
    return ja == jb ? std::string() : std::string("fields");
}

// "2, 5 and 7" (the first 20, then how many in all).
std::string listed(const std::vector<int>& ks)
{
    std::string out;
    const std::size_t shown = std::min<std::size_t>(ks.size(), 20);
    for (std::size_t i = 0; i < shown; ++i)
        out.append(i == 0 ? "" : i + 1 == ks.size() ? " and " : ", ").append(std::to_string(ks[i]));
    if (shown < ks.size())
        out += ", ... (" + std::to_string(ks.size()) + " in all)";
    return out;
}

// A shard holds exactly its slice, in order, each run drawn as the whole campaign draws it.
void checkSlice(const CampaignResult& s, const std::string& name)
{
    const RunRange range = shardRuns(s.config.runs, *s.shard);
    const std::string which = name + " (shard " + shardText(*s.shard) + ")";
    if (int(s.runs.size()) != range.end - range.begin)
        throw InputError(which + " holds " + std::to_string(s.runs.size()) + " runs, its slice " +
                         std::to_string(range.end - range.begin) + " (runs " + std::to_string(range.begin) + "-" +
                         std::to_string(range.end - 1) + ")");
    for (std::size_t n = 0; n < s.runs.size(); ++n) {
        const int index = range.begin + int(n);
        if (s.runs[n].index != index || s.runs[n].seed != planCampaignRun(s.config, index).seed)
            throw InputError(which + ": its run " + std::to_string(n) + " is not run " + std::to_string(index) +
                             " of the campaign (run number or seed differs)");
    }
}

}  // namespace

RunRange shardRuns(int runs, const CampaignShard& shard)
{
    // 64-bit products: runs and counts go to 10^7.
    const auto edge = [&](int k) { return int(std::int64_t(k) * runs / shard.count); };
    return {edge(shard.index - 1), edge(shard.index)};
}

void validateCampaignShard(const CampaignShard& shard, int runs)
{
    if (shard.count < 1 || shard.index < 1 || shard.index > shard.count)
        throw InputError("shard " + shardText(shard) + ": K must be from 1 to N (shards are numbered from 1)");
    if (shard.count > runs)
        throw InputError("shard " + shardText(shard) + ": N must be at most the number of runs (" +
                         std::to_string(runs) + "): every shard needs a run");
}

CampaignResult mergeCampaignShards(const std::vector<CampaignResult>& shards, const std::vector<std::string>& names)
{
    const auto nameOf = [&](std::size_t i) {
        return i < names.size() ? names[i] : "shard file " + std::to_string(i + 1);
    };
    if (shards.empty())
        throw InputError("nothing to merge: give the shard files (gigacheck campaign ... --shard K/N --json FILE)");
    for (std::size_t i = 0; i < shards.size(); ++i) {
        const CampaignResult& s = shards[i];
        if (!s.shard)
            throw InputError(nameOf(i) + " is a whole campaign, not a shard (it was run without --shard K/N)");
        validateCampaignShard(*s.shard, s.config.runs);
        if (s.interrupted)
            throw InputError(nameOf(i) + " (shard " + shardText(*s.shard) + ") was interrupted after " +
                             std::to_string(s.runs.size()) + " runs; run that shard again");
    }
    const CampaignResult& first = shards.front();
    std::map<int, std::size_t> byIndex;  // K -> position in shards
    for (std::size_t i = 0; i < shards.size(); ++i) {
        const CampaignResult& s = shards[i];
        const std::string versus = nameOf(i) + " and " + nameOf(0);
        if (s.shard->count != first.shard->count)
            throw InputError(versus + " split the campaign differently (shard " + shardText(*s.shard) + " vs " +
                             shardText(*first.shard) + ")");
        if (const std::string diff = configDifference(s.config, first.config); !diff.empty())
            throw InputError(versus + " are shards of different campaigns (config " + diff + ")");
        if (s.device.backend != first.device.backend)
            throw InputError(versus + " ran on different backends (" + std::string(toString(s.device.backend)) +
                             " vs " + std::string(toString(first.device.backend)) +
                             "); run every shard with the same --backend");
        if (s.toolVersion != first.toolVersion)
            throw InputError(versus + " come from different gigacheck versions (" + s.toolVersion + " vs " +
                             first.toolVersion + ")");
        const auto [at, inserted] = byIndex.emplace(s.shard->index, i);
        if (!inserted)
            throw InputError("shard " + shardText(*s.shard) + " is given twice (" + nameOf(at->second) + " and " +
                             nameOf(i) + ")");
    }
    std::vector<int> missing;
    for (int k = 1; k <= first.shard->count; ++k)
        if (!byIndex.count(k))
            missing.push_back(k);
    if (!missing.empty())
        throw InputError(std::string(missing.size() == 1 ? "shard " : "shards ") + listed(missing) + " of " +
                         std::to_string(first.shard->count) + (missing.size() == 1 ? " is" : " are") + " missing");

    CampaignResult merged;
    merged.config = first.config;
    merged.toolVersion = first.toolVersion;
    merged.createdAt = nowIso8601();
    merged.device = shards[byIndex.begin()->second].device;  // shard 1's
    std::vector<std::string> deviceNames;
    for (const auto& [k, i] : byIndex) {
        const CampaignResult& s = shards[i];
        checkSlice(s, nameOf(i));
        if (std::find(deviceNames.begin(), deviceNames.end(), s.device.name) == deviceNames.end())
            deviceNames.push_back(s.device.name);
        merged.runs.insert(merged.runs.end(), s.runs.begin(), s.runs.end());
    }
    if (deviceNames.size() > 1) {  // say every device the runs saw, not one of them
        merged.device.name.clear();
        for (const std::string& name : deviceNames)
            merged.device.name.append(merged.device.name.empty() ? "" : " + ").append(name);
        merged.device.whyChosen = "merged from " + std::to_string(byIndex.size()) + " shards on " +
                                  std::to_string(deviceNames.size()) + " kinds of device";
    }
    merged.summary = summarize(merged.runs, merged.config.family);
    return merged;
}

}  // namespace gigacheck
