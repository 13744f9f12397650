// libFuzzer target: pl::mdp::parseMdpJson must return a validated MDP or throw pl::InputError (the
// JSON MDP reader of the behavioral-abstraction and pac-bayes-sac panels).
#include "core/Errors.h"
#include "mdp/MdpReader.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::mdp::Mdp m = pl::mdp::parseMdpJson(text, "fuzz.json");
        (void)m;
    } catch (const pl::InputError&) {
    }
    return 0;
}
