#pragma once
/// Declarative parameter descriptions. Engines publish a list of ParamSpec; the GUI generates
/// its form from it and the CLI validates `--set KEY=VALUE` against it. No Qt here.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace pl {

enum class ParamType { Int, Double, Bool, Choice, String };

/// One parameter value. Int is 64-bit; Choice and String are stored as std::string.
using ParamValue = std::variant<int64_t, double, bool, std::string>;

/// Description of one parameter: key, type, range, default, unit and help text.
struct ParamSpec {
    std::string key;                  ///< stable identifier used in --set, sessions and JSON
    std::string label;                ///< short human label for the form
    ParamType type = ParamType::Double;
    double min = 0;                   ///< inclusive lower bound (Int/Double)
    double max = 0;                   ///< inclusive upper bound (Int/Double)
    ParamValue defaultValue = 0.0;
    std::string unit;                 ///< unit shown next to the control ("" = dimensionless)
    std::string help;                 ///< tooltip / CLI help
    std::vector<std::string> choices; ///< allowed values for Choice
    bool logScale = false;            ///< slider moves on a log axis (requires min > 0)
    std::string group;                ///< optional group title in the form

    static ParamSpec integer(std::string key, std::string label, int64_t min, int64_t max, int64_t def,
                             std::string help, std::string unit = {});
    static ParamSpec real(std::string key, std::string label, double min, double max, double def,
                          std::string help, std::string unit = {}, bool logScale = false);
    static ParamSpec boolean(std::string key, std::string label, bool def, std::string help);
    static ParamSpec choice(std::string key, std::string label, std::vector<std::string> choices,
                            std::string def, std::string help);

    /// Parses text for this parameter. Throws UsageError naming the key and the allowed range.
    ParamValue parse(const std::string& text) const;
    /// Checks a value's type and range. Throws UsageError naming the key and the allowed range.
    ParamValue validate(const ParamValue& v) const;
    /// "[min, max]" or "one of a|b|c" for messages.
    std::string allowedText() const;
};

/// Formats a value for display, CLI output and JSON-as-text ("3", "0.001", "true", "hybrid").
std::string toString(const ParamValue& v);
std::string toString(ParamType t);

/// A complete, validated assignment of values to a list of specs.
class ParamSet {
public:
    ParamSet() = default;
    /// All defaults of the given specs.
    explicit ParamSet(const std::vector<ParamSpec>& specs);

    /// Sets KEY from text (CLI/session). Throws UsageError for unknown keys or bad values.
    void setText(const std::string& key, const std::string& text);
    /// Sets KEY to a value, validating type and range. Throws UsageError.
    void set(const std::string& key, const ParamValue& v);

    bool has(const std::string& key) const { return m_values.count(key) != 0; }
    int64_t getInt(const std::string& key) const;
    double getDouble(const std::string& key) const; ///< also accepts Int values
    bool getBool(const std::string& key) const;
    const std::string& getString(const std::string& key) const; ///< Choice or String

    const std::map<std::string, ParamValue>& values() const { return m_values; }
    const std::vector<ParamSpec>& specs() const { return m_specs; }
    const ParamSpec* spec(const std::string& key) const;
    bool operator==(const ParamSet& o) const { return m_values == o.m_values; }

private:
    const ParamValue& get(const std::string& key) const;
    std::vector<ParamSpec> m_specs;
    std::map<std::string, ParamValue> m_values;
};

} // namespace pl
