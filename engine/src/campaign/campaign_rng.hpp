// The campaign's random stream: splitmix64, reproducible on every machine (std distributions are
// implementation-defined), keyed by (campaign seed, run number) so that any run replays alone.
#pragma once

#include <cstdint>

namespace gigacheck {

class CampaignRng {
public:
    explicit CampaignRng(std::uint64_t seed) : state_(seed) {}
    // Run `index`'s stream of the campaign seeded `seed` (planCampaignRun's, for every family).
    static CampaignRng forRun(std::uint64_t seed, int index)
    {
        return CampaignRng(seed * 0xD1B54A32D192ED03ull + std::uint64_t(index) * 0x8CB92BA72F3D8DD7ull + 1);
    }
    std::uint64_t next()
    {
        std::uint64_t x = (state_ += 0x9E3779B97F4A7C15ull);
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
        return x ^ (x >> 31);
    }
    std::int64_t below(std::int64_t n) { return n <= 1 ? 0 : std::int64_t(next() % std::uint64_t(n)); }
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)

private:
    std::uint64_t state_;
};

}  // namespace gigacheck
