// A campaign's vocabulary, its validation, and how each run is drawn from the campaign seed so
// that any single run can be reproduced alone (`gigacheck run` or the lab).
#include "gigacheck/campaign.hpp"

#include "campaign/campaign_rng.hpp"
#include "campaign/family_campaign.hpp"
#include "campaign/flipped_bits.hpp"

#include "gigacheck/defaults.hpp"
#include "gigacheck/family.hpp"
#include "gigacheck/fault_grammar.hpp"
#include "gigacheck/fault_models.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

namespace gigacheck {

namespace {

std::uint64_t defaultCap(const CampaignConfig& c)
{
    // A quarter of A + B + C: every strategy needs several blocks, so faults land in one block
    // product among many as in a real out-of-core run.
    const Shape& s = c.shape;
    const double bytes = (double(s.m) * double(s.n) + double(s.n) * double(s.q) + double(s.m) * double(s.q)) *
                         double(c.type == CampaignType::F64 ? 8 : 4);
    return std::max<std::uint64_t>(std::uint64_t(bytes / 4), 64 * 1024);  // tiny shapes: room for any strategy
}

}  // namespace

std::uint64_t campaignCapBytes(const CampaignConfig& c, StrategyKind strategy)
{
    if (c.memCapBytes)
        return c.memCapBytes;
    return strategy == StrategyKind::None ? 0 : defaultCap(c);
}

GemmVariant campaignGemm(CampaignType type)
{
    switch (type) {
    case CampaignType::Tf32: return GemmVariant::CublasTf32;
    case CampaignType::Bf16: return GemmVariant::CublasBf16;
    case CampaignType::F16: return GemmVariant::CublasF16;
    case CampaignType::Tf32x3: return GemmVariant::Tf32x3;
    case CampaignType::F32:
    case CampaignType::F64: break;
    }
    return GemmVariant::Cublas;
}

std::string_view toString(CampaignTarget t)
{
    switch (t) {
    case CampaignTarget::Result: return "result";
    case CampaignTarget::Checksum: return "checksum";
    case CampaignTarget::A: return "a";
    case CampaignTarget::B: return "b";
    case CampaignTarget::Any: return "any";
    case CampaignTarget::AAfter: return "a-after";
    case CampaignTarget::BAfter: return "b-after";
    case CampaignTarget::Product: return "product";
    case CampaignTarget::CQuadrant: return "c";
    case CampaignTarget::Check: return "check";
    case CampaignTarget::Correction: return "correction";
    case CampaignTarget::Encoding: return "encoding";
    case CampaignTarget::ChecksumRow: return "checksum-row";
    case CampaignTarget::ChecksumCol: return "checksum-col";
    case CampaignTarget::EncodingA: return "encoding-a";
    case CampaignTarget::EncodingB: return "encoding-b";
    }
    return "?";
}

CampaignTarget campaignTargetFromString(std::string_view s)
{
    for (CampaignTarget t : {CampaignTarget::Result, CampaignTarget::Checksum, CampaignTarget::A, CampaignTarget::B,
                             CampaignTarget::Any, CampaignTarget::AAfter, CampaignTarget::BAfter,
                             CampaignTarget::Product, CampaignTarget::CQuadrant, CampaignTarget::Check,
                             CampaignTarget::Correction, CampaignTarget::Encoding, CampaignTarget::ChecksumRow,
                             CampaignTarget::ChecksumCol, CampaignTarget::EncodingA, CampaignTarget::EncodingB})
        if (toString(t) == s)
            return t;
    if (s == "a-before")  // a and b: before the checksums, the names kept from before the split
        return CampaignTarget::A;
    if (s == "b-before")
        return CampaignTarget::B;
    throw InputError("unknown campaign target '" + std::string(s) +
                     "' (expected result, checksum, checksum-row, checksum-col, a, b, a-before, b-before, a-after, b-after, "
                     "product, c, check, correction, encoding, encoding-a, encoding-b or any)");
}

std::string_view toString(CampaignType t)
{
    switch (t) {
    case CampaignType::F32: return "f32";
    case CampaignType::F64: return "f64";
    case CampaignType::Tf32: return "tf32";
    case CampaignType::Bf16: return "bf16";
    case CampaignType::F16: return "f16";
    case CampaignType::Tf32x3: return "tf32x3";
    }
    return "?";
}

CampaignType campaignTypeFromString(std::string_view s)
{
    for (CampaignType t : {CampaignType::F32, CampaignType::F64, CampaignType::Tf32, CampaignType::Bf16, CampaignType::F16,
                           CampaignType::Tf32x3})
        if (toString(t) == s)
            return t;
    throw InputError("unknown type '" + std::string(s) + "' (expected f32, f64, tf32, tf32x3, bf16 or f16)");
}

void parseCampaignFault(std::string_view text, CampaignConfig& c)
{
    if (text == "none") {
        c.inject = false;
        return;
    }
    c.inject = true;
    c.twoBits = false;
    c.bit2 = -1;
    if (text == "bitflip2" || text == "bitflip2:any") {  // two random bits of one word
        c.model = FaultModel::BitFlip;
        c.bit = -1;
        c.twoBits = true;
        return;
    }
    // Every verb's --fault (gigacheck/fault_grammar.hpp); bitflip and bitflip:any draw a bit per run.
    FaultModelSpec model;
    try {
        model = parseFaultModelSpec(text == "bitflip:any" ? std::string_view("bitflip") : text);
    } catch (const InputError& e) {
        throw InputError(std::string(e.what()) + "; a campaign also takes bitflip:any (a random bit per run), "
                         "bitflip2 (two random bits of one word) and none (no fault: false alarms)");
    }
    c.model = model.model;
    c.bit = model.bit;
    c.twoBits = model.bit2 >= 0;
    c.bit2 = model.bit2;
}

std::string campaignFaultText(const CampaignConfig& c)
{
    if (!c.inject)
        return "none";
    if (c.model == FaultModel::Delta)
        return "delta";
    if (c.twoBits)
        return c.bit < 0 ? "bitflip2" : "bitflip:" + std::to_string(c.bit) + "+" + std::to_string(c.bit2);
    return c.bit < 0 ? "bitflip:any" : "bitflip:" + std::to_string(c.bit);
}

namespace {

// The registry's campaign-capable families (Family::campaign), in its order.
const std::vector<const FamilyCampaign*>& campaignFamilies()
{
    static const std::vector<const FamilyCampaign*> list = [] {
        std::vector<const FamilyCampaign*> out;
        for (const Family* f : families())
            if (f->campaign)
                out.push_back(&f->campaign());
        return out;
    }();
    return list;
}

// "a, b or c"
template <class Names> std::string namesOr(const Names& names)
{
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out.append(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ").append(names[i]);
    return out;
}

}  // namespace

const FamilyCampaign& campaignFamilyOf(const CampaignConfig& c) { return campaignFamilyOf(c.family); }

const FamilyCampaign& campaignFamilyOf(std::string_view family)
{
    for (const FamilyCampaign* f : campaignFamilies())
        if (f->traits().name == family)
            return *f;
    throw InputError("this gigacheck has no campaigns of family '" + std::string(family) + "'");
}

const FamilyCampaign* campaignFamilyOfScheme(std::string_view scheme)
{
    for (const FamilyCampaign* f : campaignFamilies()) {
        const auto& schemes = f->traits().selectingSchemes;
        if (std::find(schemes.begin(), schemes.end(), scheme) != schemes.end())
            return f;
    }
    return nullptr;
}

std::vector<std::string_view> campaignFamilyNames()
{
    std::vector<std::string_view> names;
    for (const FamilyCampaign* f : campaignFamilies())
        names.push_back(f->traits().name);
    return names;
}

CampaignFamily campaignFamilyFromString(std::string_view s)
{
    for (const FamilyCampaign* f : campaignFamilies())
        if (f->traits().name == s)
            return std::string(s);
    throw InputError("unknown family '" + std::string(s) + "' (expected " + namesOr(campaignFamilyNames()) + ")");
}

std::vector<CampaignTarget> campaignTargetsOf(const CampaignFamily& f)
{
    return campaignFamilyOf(f).traits().targets;
}

std::string campaignFamilyHelp()
{
    std::vector<std::string> entries;  // "blocked (blocked GEMM under a memory cap)", ...
    for (const FamilyCampaign* f : campaignFamilies()) {
        const CampaignFamilyTraits& t = f->traits();
        entries.push_back(std::string(t.name) + (t.helpWords.empty() ? "" : " (" + std::string(t.helpWords) + ")"));
    }
    std::string help = "Algorithm family: " + namesOr(entries) + ". Default " +
                       CampaignConfig{}.family;
    for (const FamilyCampaign* f : campaignFamilies()) {
        const CampaignFamilyTraits& t = f->traits();
        if (t.name == CampaignConfig{}.family || t.selectingSchemes.empty())
            continue;
        std::string schemes;
        for (std::string_view s : t.selectingSchemes)
            schemes.append(schemes.empty() ? "" : "|").append(s);
        help += ", or " + std::string(t.name) + " with --scheme " + schemes;
    }
    return help + ".";
}

std::string campaignFamilyList()
{
    std::string list;
    for (const FamilyCampaign* f : campaignFamilies()) {
        const CampaignFamilyTraits& t = f->traits();
        list.append(list.empty() ? "" : ", ").append(t.name);
        if (t.name == CampaignConfig{}.family) {
            list += " (default)";
        } else if (!t.selectingSchemes.empty()) {
            std::string schemes;
            for (std::string_view s : t.selectingSchemes)
                schemes.append(schemes.empty() ? "" : "|").append(s);
            list += " (--scheme " + schemes + ")";
        }
    }
    return list;
}

namespace {

// "blocked" or "blocked and online": the families that take what `takes` asks of their traits.
std::string familiesTaking(bool CampaignFamilyTraits::*takes)
{
    std::vector<std::string_view> names;
    for (const FamilyCampaign* f : campaignFamilies())
        if (f->traits().*takes)
            names.push_back(f->traits().name);
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out.append(i == 0 ? "" : i + 1 == names.size() ? " and " : ", ").append(names[i]);
    return out;
}

// The families that take 16-bit inputs.
std::string sixteenBitFamilies() { return familiesTaking(&CampaignFamilyTraits::sixteenBitTypes); }

}  // namespace

CampaignOptionHelp campaignSchemeHelp()
{
    CampaignOptionHelp h;
    std::string families, defaults;
    for (const FamilyCampaign* f : campaignFamilies()) {
        const CampaignFamilyTraits& t = f->traits();
        if (t.selectingSchemes.empty())
            continue;  // its scheme is its own: nothing to choose
        for (std::string_view scheme : t.selectingSchemes)
            h.values.append(h.values.empty() ? "" : "|").append(scheme);
        families.append(families.empty() ? "" : "; ")
            .append(namesOr(t.selectingSchemes))
            .append(" (--family ")
            .append(t.name)
            .append(")");
        if (t.name != CampaignConfig{}.family)
            defaults.append("; ").append(t.defaultScheme).append(" with --family ").append(t.name);
    }
    h.text = "ABFT scheme, which also picks the family: " + families + ". Default " +
             std::string(campaignFamilyOf(CampaignConfig{}.family).traits().defaultScheme) + defaults + ".";
    return h;
}

std::string campaignFaultHelp()
{
    std::string help = "Per run: flip a random bit, flip bit B, flip two bits of one word (bitflip2, bitflip:B+B2), add "
                       "a random delta, or inject nothing (false-alarm mode). Default bitflip:any";
    for (const FamilyCampaign* f : campaignFamilies()) {
        const CampaignFamilyTraits& t = f->traits();
        if (!t.defaultModel)
            continue;
        help.append("; ").append(t.name).append(": ").append(toString(*t.defaultModel));
        if (!t.faultWords.empty())
            help.append(" (").append(t.faultWords).append(")");
    }
    return help + ".";
}

CampaignOptionHelp campaignTargetHelp()
{
    CampaignOptionHelp h;
    h.text = "Where faults land.";
    std::vector<CampaignTarget> listed;
    std::string defaults;
    for (const FamilyCampaign* f : campaignFamilies()) {
        const CampaignFamilyTraits& t = f->traits();
        h.text.append(" ").append(t.name).append(": ").append(t.targetWords).append(".");
        for (CampaignTarget target : t.targets)
            if (std::find(listed.begin(), listed.end(), target) == listed.end())
                listed.push_back(target);
        if (t.defaultTarget)
            defaults.append("; ").append(t.name).append(" ").append(toString(*t.defaultTarget));
    }
    // "any" last, as every family lists it.
    std::stable_partition(listed.begin(), listed.end(), [](CampaignTarget t) { return t != CampaignTarget::Any; });
    for (CampaignTarget target : listed)
        h.values.append(h.values.empty() ? "" : "|").append(toString(target));
    h.text += " Default " + std::string(toString(CampaignConfig{}.target)) + defaults + ".";
    return h;
}

std::string campaignModelHelp()
{
    return "How far each fault reaches from its cell (" + familiesTaking(&CampaignFamilyTraits::extents) +
           " families): one cell, L cells of its row or column (of the block; online: of C or the target; a warp's "
           "worth: 32), or an S x S tile; clipped to the block or target. Default cell.";
}

std::string campaignTypeHelp()
{
    return "f32, f64, or tf32 (FP32 values, TF32 tensor-core GEMM; emulated on the CPU); tf32x3: FP32 values, "
           "FP32-accurate products from three TF32 products (--gemm tf32x3; blocked and online families); bf16 / f16: "
           "FP32 values multiplied with BF16 / FP16 inputs (" +
           sixteenBitFamilies() + " family). Default f32.";
}

std::vector<OptionSpec> campaignFamilyOptions()
{
    std::vector<OptionSpec> options;
    for (const FamilyCampaign* f : campaignFamilies())
        for (OptionSpec& o : f->optionSpecs())
            options.push_back(std::move(o));
    return options;
}

void readCampaignFamilyOption(std::string_view name, const std::string& value, CampaignConfig& c)
{
    for (const FamilyCampaign* f : campaignFamilies())
        for (const OptionSpec& o : f->optionSpecs())
            if (o.name == name) {
                f->readOption(name, value, c);
                return;
            }
    throw InputError("no campaign family takes --" + std::string(name));
}

void chooseCampaignFamily(CampaignConfig& c, std::optional<CampaignFamily> family,
                          const std::optional<std::string>& scheme, const std::function<bool(std::string_view)>& given)
{
    const FamilyCampaign* bySchemeAlone = scheme ? campaignFamilyOfScheme(*scheme) : nullptr;
    if (family)
        c.family = *family;
    else if (bySchemeAlone)
        c.family = bySchemeAlone->traits().name;
    const FamilyCampaign& chosen = campaignFamilyOf(c.family);
    const CampaignFamilyTraits& traits = chosen.traits();
    c.scheme = scheme ? *scheme : std::string(traits.defaultScheme);
    if (scheme)
        chosen.checkScheme(*scheme);
    if (traits.defaultModel && !given("fault"))
        c.model = *traits.defaultModel;
    if (traits.defaultTarget && !given("target"))
        c.target = *traits.defaultTarget;
    for (const FamilyCampaign* other : campaignFamilies()) {
        if (other == &chosen)
            continue;
        for (std::string_view option : other->traits().ownOptions)
            if (given(option))
                throw InputError("--" + std::string(option) + " belongs to " + std::string(other->traits().optionOwner) +
                                 ", not to a " + std::string(traits.name) + " campaign");
    }
    chosen.checkOptions(c, given);
}

void validateCampaign(const CampaignConfig& c, const DeviceInfo& device)
{
    if (c.runs < 1)
        throw InputError("a campaign needs at least one run (--runs N, N >= 1)");
    if (c.strategies.empty())
        throw InputError("a campaign needs at least one strategy");
    if (c.faultsPerRun < 1)
        throw InputError("--faults-per-run must be at least 1");
    const Shape& s = c.shape;
    if (s.m < 1 || s.n < 1 || s.q < 1)
        throw InputError("every dimension of the shape must be at least 1");
    if (c.inject) {
        const std::vector<CampaignTarget> targets = campaignTargetsOf(c.family);
        if (std::find(targets.begin(), targets.end(), c.target) == targets.end()) {
            std::string names;
            for (CampaignTarget t : targets)
                names.append(names.empty() ? "" : ", ").append(toString(t));
            const std::string& name = c.family;
            if (!c.placed.empty())
                throw InputError("--inject-at " + toString(c.placed.front()) + " (target " + std::string(toString(c.target)) +
                                 ") is not a place of " + (std::string_view("aeiou").find(name.front()) != std::string_view::npos ? "an " : "a ") +
                                 name + " campaign (its targets: " + names + ")");
            throw InputError("--target " + std::string(toString(c.target)) + " is not a target of " +
                             (std::string_view("aeiou").find(name.front()) != std::string_view::npos ? "an " : "a ") +
                             name + " campaign (" + names + ")");
        }
    }
    const CampaignFamilyTraits& traits = campaignFamilyOf(c).traits();
    validateFlippedBits(c);
    // Named after the families that take them; one cell (--extent cell) is every family's model.
    if (!traits.sixteenBitTypes) {
        const std::string owners = sixteenBitFamilies();
        const std::string first = owners.substr(0, owners.find(' '));
        if (c.type == CampaignType::Bf16 || c.type == CampaignType::F16)
            throw InputError("--type " + std::string(toString(c.type)) + " (16-bit inputs) is a type of the " + first +
                             " family's campaigns (--family " + first + ")");
    }
    if (!traits.extents && c.inject && c.extent != FaultExtent::Cell) {
        const std::string owners = familiesTaking(&CampaignFamilyTraits::extents);
        throw InputError("--extent " + faultExtentText(c.extent, c.extentLength) + " is a fault model of the " + owners +
                         " famil" + (owners.find(' ') == std::string::npos ? "y" : "ies") + " (--family " +
                         owners.substr(0, owners.find(' ')) + ")");
    }
    campaignFamilyOf(c).validate(c, device);
}

CampaignRun planCampaignRun(const CampaignConfig& c, int index)
{
    CampaignRng rng = CampaignRng::forRun(c.seed, index);
    CampaignRun run;
    run.index = index;
    run.seed = rng.next() >> 1;  // kept below 2^63 so that every JSON reader keeps it exact
    run.strategy = c.strategies[std::size_t(index) % c.strategies.size()];
    campaignFamilyOf(c).plan(c, run, rng);
    return run;
}

std::string reproduceCommand(const CampaignConfig& c, const CampaignRun& run)
{
    return campaignFamilyOf(c).reproduce(c, run);
}

}  // namespace gigacheck
