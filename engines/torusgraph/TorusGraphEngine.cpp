#include "TorusGraphEngine.h"

#include "TorusGraphRun.h"

#include "core/CsvReader.h"
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "core/PathUtil.h"
#include "core/Rng.h"
#include "cuda/CudaDevice.h"

#include <algorithm>
#include <cmath>

namespace pl::torusgraph {

bool TorusGraphEngine::hasCudaPath() const {
    return pl::cuda::built();
}

std::shared_ptr<const LoadedInput> TorusGraphEngine::load(const std::string& path) const {
    const std::string ext = lowerExtension(path);
    auto in = std::make_shared<MatrixInput>();
    in->path = path;
    if (ext == "csv") {
        CsvTable t = CsvReader::readFile(path);
        in->kind = "csv";
        in->rows = t.values.rows();
        in->cols = t.values.cols();
        in->names = t.header;
        in->data.resize(size_t(in->rows * in->cols));
        for (int64_t r = 0; r < in->rows; ++r)
            for (int64_t c = 0; c < in->cols; ++c)
                in->data[size_t(r * in->cols + c)] = t.values(r, c);
    } else if (ext == "npy") {
        NpyArray a = NpyReader::readFile(path);
        in->kind = "npy";
        if (a.shape.size() != 2)
            throw InputError(path, "expected a 2-d array (samples x channels), got " +
                                       std::to_string(a.shape.size()) + " dimension(s)" +
                                       (a.shape.size() == 1 ? " (one channel)" : ""));
        in->rows = a.shape[0];
        in->cols = a.shape[1];
        in->data = std::move(a.data);
        for (size_t i = 0; i < in->data.size(); ++i)
            if (!std::isfinite(in->data[i]))
                throw InputError(path, "non-finite value at row " +
                                           std::to_string(int64_t(i) / in->cols + 1) + ", column " +
                                           std::to_string(int64_t(i) % in->cols + 1));
    } else {
        throw InputError(path, "unsupported file type '." + ext + "' (expected .csv or .npy)");
    }
    if (in->rows < 1)
        throw InputError(path, "no data rows");
    if (in->cols < 2)
        throw InputError(path, "only one channel (column); a torus graph needs at least 2");
    in->summary = std::to_string(in->rows) + " x " + std::to_string(in->cols) + " " + in->kind + " matrix";
    return in;
}

ResultDocument TorusGraphEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    TorusRun run(inputs, p, ctx, doc);
    run.prepareData();
    run.fitClosedForm();
    run.fitStochastic();
    run.testEdges();
    run.packTorusPair();
    run.checkRecoveryClaims();
    run.runScalingStudy();
    run.runHmm();
    run.runArTg();
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::torusgraph
