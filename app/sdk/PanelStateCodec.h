#pragma once
/// Compact text form of a panel's parameters and seed, for the clipboard ("Copy state"):
///   paperlab:ssn-nash?seed=42&solver=prm_plus&rows=40
/// Only parameters that differ from their defaults are written; keys and values are
/// percent-encoded. Decoding validates everything (panel id, every key and value, the seed) and
/// changes nothing on failure. Pure functions; any thread.

#include "core/ParamSpec.h"

#include <QString>
#include <cstdint>

namespace pl {

class PanelStateCodec {
public:
    static constexpr const char* kScheme = "paperlab:";

    /// Encodes `params` (non-default values only) and `seed` for panel `pluginId`.
    static QString encode(const QString& pluginId, const ParamSet& params, uint64_t seed);

    /// Decodes `text` for panel `pluginId` whose engine has `specs`: on success *params holds the
    /// defaults with the encoded values applied and *seed the seed (42 when absent). On failure
    /// returns false with a readable *error; the outputs are untouched.
    static bool decode(const QString& text, const QString& pluginId, const std::vector<ParamSpec>& specs,
                       ParamSet* params, uint64_t* seed, QString* error);

    /// The panel id of a state string ("" when it is not one).
    static QString pluginIdOf(const QString& text);
};

} // namespace pl
