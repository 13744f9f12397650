// libFuzzer target: the protovar-distillation IDX reader (pl::distill::parseProtovarIdx) must return
// 1 or 3 dimensions whose product is the payload length (images at most 32 x 32) or throw
// pl::InputError; an image file paired with labels cut from its own payload must give a set or
// throw pl::InputError.
#include "core/Errors.h"
#include "distill/ProtovarInputs.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const pl::distill::IdxInput a = pl::distill::parseProtovarIdx(bytes, "fuzz.idx3-ubyte");
        int64_t total = 1;
        for (int64_t d : a.dims)
            total *= d;
        if ((a.dims.size() != 1 && a.dims.size() != 3) || int64_t(a.values.size()) != total)
            std::abort();
        if (a.dims.size() == 3) {
            if (a.dims[1] > 32 || a.dims[2] > 32)
                std::abort();
            auto img = std::make_shared<pl::distill::IdxInput>(a);
            auto lab = std::make_shared<pl::distill::IdxInput>();
            lab->dims = {a.dims[0]};
            lab->values.assign(a.values.begin(), a.values.begin() + a.dims[0]);
            pl::distill::ImageSet train, test;
            pl::distill::gatherProtovarInputs({img, lab}, train, test);
            if (train.X.rows() + test.X.rows() != a.dims[0] || train.X.maxCoeff() > 1.0)
                std::abort();
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
