// libFuzzer target: pl::robusttrain::parseIdx must return an array whose payload matches its
// dimensions or throw pl::InputError; pairing it with itself as labels (idxPair) must give a
// dataset or throw pl::InputError.
#include "core/Errors.h"
#include "robusttrain/LabeledData.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const pl::robusttrain::IdxArray a = pl::robusttrain::parseIdx(bytes, "fuzz.idx");
        int64_t total = 1;
        for (int64_t d : a.dims)
            total *= d;
        if (a.dims.empty() || a.dims.size() > 3 || int64_t(a.values.size()) != total)
            std::abort();
        pl::robusttrain::IdxArray labels;
        labels.dims = {a.dims[0]};
        labels.values.assign(a.values.begin(), a.values.begin() + a.dims[0]);
        if (a.dims.size() >= 2) {
            const pl::robusttrain::Dataset d = pl::robusttrain::idxPair(a, "fuzz.idx", labels, "labels.idx");
            if (d.rows() != a.dims[0] || d.X.maxCoeff() > 1.0 || d.X.minCoeff() < 0.0)
                std::abort();
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
