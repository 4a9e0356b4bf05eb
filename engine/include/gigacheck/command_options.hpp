// A family's command line, without Qt: the options its verb declares (OptionSpec), the values the
// program read for them (CommandOptions), what the program around a verb provides (CommandIo:
// its streams and the signals), and the value parsers that several verbs share (counts, shapes,
// device numbers). The program (app/cli) builds its parser from the OptionSpecs and fills a
// CommandOptions; the family's verb (Family::command, gigacheck/family.hpp) reads it.
#pragma once

#include "gigacheck/types.hpp"

#include <atomic>
#include <charconv>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace gigacheck {

// Exit codes scripts rely on (README "CLI reference").
inline constexpr int kExitVerified = 0;       // result verified correct (clean or corrected)
inline constexpr int kExitUncorrectable = 1;  // uncorrectable errors remain, or the reference disagrees
inline constexpr int kExitFailure = 2;        // bad input or a failure
inline constexpr int kExitNotVerified = 3;    // the run ended but no check that could see a fault ran

// One option of a verb, as its --help lists it.
struct OptionSpec {
    std::string name;               // --name
    std::string help;               // its line in --help
    std::string valueName = {};     // shown as <valueName>; empty: a switch that takes no value
    std::string defaultValue = {};  // what value() gives when the option is not given
    bool repeatable = false;   // a list by design (--inject-at); any other option takes one value
};

// The values given for a verb's options (the program's parser filled them, checked against the
// OptionSpecs: no unknown option, one value for an option that is not repeatable).
class CommandOptions {
public:
    CommandOptions() = default;
    explicit CommandOptions(const std::vector<OptionSpec>& specs);

    // The program's side: one more occurrence of --name (a switch: an empty value).
    void add(const std::string& name, std::string value = {});
    void addPositional(std::string word);

    bool isSet(std::string_view name) const;
    // The last value given, else the option's default, else "".
    std::string value(std::string_view name) const;
    // Every value given, in order (empty when none).
    std::vector<std::string> values(std::string_view name) const;
    const std::vector<std::string>& positional() const { return positional_; }

    // value(name) converted by parse; a conversion error (InputError) is rethrown naming the
    // option and its value ("--seed x: 'x' is not a seed").
    template <class Parse>
    auto value(std::string_view name, Parse parse) const -> decltype(parse(std::string()))
    {
        const std::string text = value(name);
        try {
            return parse(text);
        } catch (const InputError& e) {
            throw InputError("--" + std::string(name) + " " + text + ": " + e.what());
        }
    }

private:
    std::map<std::string, std::vector<std::string>, std::less<>> given_;
    std::map<std::string, std::string, std::less<>> defaults_;
    std::vector<std::string> positional_;
};

// What the program around a verb provides: where its words go, and the signals (app/cli/interrupt).
// A verb reads its options, checks its outputs, then runs inside beginCancellable .. release.
class CommandIo {
public:
    virtual ~CommandIo() = default;
    virtual std::ostream& out() = 0;
    virtual std::ostream& err() = 0;
    // From here a signal asks the run to stop between operations (cancel() turns true), and the
    // partial record is still written; before it, a signal ends the process with its line.
    virtual void beginCancellable() = 0;
    virtual const std::atomic<bool>& cancel() const = 0;
    // The run has returned: a signal from here waits until the outputs are written whole.
    virtual void holdSignals() = 0;
    // Before the closing line; endingSaysSo: that line reports the interruption.
    virtual void release(bool endingSaysSo) = 0;
    // "interrupted (SIGINT)" or "terminated (SIGTERM)": what stopped the run.
    virtual std::string interruptWords() const = 0;
};

// A whole decimal integer in [min, max], for every verb's counts and sizes; anything else (signs,
// spaces, suffixes, "1e3", a value past T) is an InputError naming what was expected.
template <class T>
T parseInteger(const std::string& text, T min, T max, const char* what)
{
    T value{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end)
        throw InputError("'" + text + "' is not " + what);
    if (value < min || value > max)
        throw InputError("'" + text + "' is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    return value;
}

// "2048x1024x1536" -> Shape (A is M x N, B is N x Q).
Shape parseShape(const std::string& text);
// "N" -> a CUDA device number (0..1023).
int parseDeviceNumber(const std::string& text);
// A matrix extent: a whole number >= 1.
std::int64_t parsePositiveExtent(const std::string& text);

// --device N of every verb that takes it, checked once the options are read and before anything
// runs: device is a CUDA ordinal as `gigacheck devices` lists them, or -1 (not given: nothing to
// check). InputError when backend is cpu (a device number asks for CUDA), or when there is no
// CUDA device with that ordinal (no CUDA at all, or fewer devices), naming what there is.
void requireDevice(int device, BackendKind backend = BackendKind::Auto);

}  // namespace gigacheck
