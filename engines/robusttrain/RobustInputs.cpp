#include "RobustInputs.h"

#include "core/CsvReader.h"
#include "core/Errors.h"

#include <cctype>

namespace pl::robusttrain {

namespace {
bool firstLineHasText(const std::string& text) {
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t nl = text.find('\n', pos);
        const std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        pos = nl == std::string::npos ? text.size() : nl + 1;
        const size_t a = line.find_first_not_of(" \t\r");
        if (a == std::string::npos || line[a] == '#')
            continue;
        for (char c : line)
            if (std::isalpha(static_cast<unsigned char>(c)) && c != 'e' && c != 'E')
                return true;
        return false;
    }
    return false;
}
} // namespace

std::shared_ptr<const LoadedInput> loadRobustInput(const std::string& path) {
    const std::string bytes = readFileChecked(path, int64_t(256) << 20);
    if (bytes.size() >= 2 && bytes[0] == 0 && bytes[1] == 0) { // IDX magic starts with two zero bytes
        auto in = std::make_shared<IdxInput>();
        in->array = parseIdx(bytes, path);
        in->path = path;
        in->kind = "idx";
        in->summary = "IDX array of " + std::to_string(in->array.dims.size()) + " dimensions, " +
                      std::to_string(in->array.dims[0]) + " items";
        return in;
    }
    if (firstLineHasText(bytes)) {
        auto in = std::make_shared<LabeledCsvInput>();
        in->table = parseLabeledCsv(bytes, path);
        in->path = path;
        in->kind = "csv";
        in->summary = std::to_string(in->table.data.rows()) + " rows, " +
                      std::to_string(in->table.data.dim()) + " features, " +
                      std::to_string(in->table.data.classes) + " classes";
        return in;
    }
    auto in = std::make_shared<LayerCsvInput>();
    in->M = CsvReader::parse(bytes, path).values;
    if (in->M.cols() < 2)
        throw InputError(path, "a layer needs at least 2 columns (weights and the bias)", 1);
    in->path = path;
    in->kind = "layer csv";
    in->summary =
        "MLP layer " + std::to_string(in->M.rows()) + " x " + std::to_string(in->M.cols() - 1) + " + bias";
    return in;
}

GatheredInputs gatherInputs(const InputList& inputs) {
    GatheredInputs g;
    const IdxInput *images = nullptr, *labels = nullptr;
    for (const auto& in : inputs) {
        if (const auto* t = dynamic_cast<const LabeledCsvInput*>(in.get())) {
            if (g.hasData)
                throw InputError(in->path, "a second dataset (one data file per run)");
            g.hasData = true;
            g.table = t->table;
            g.data = t->table.data;
            g.dataPath = in->path;
        } else if (const auto* x = dynamic_cast<const IdxInput*>(in.get())) {
            const IdxInput*& slot = x->array.dims.size() == 1 ? labels : images;
            if (slot)
                throw InputError(in->path, std::string("a second IDX ") +
                                               (slot == labels ? "label" : "image") + " file");
            slot = x;
        } else if (const auto* l = dynamic_cast<const LayerCsvInput*>(in.get())) {
            g.layers.push_back(l);
        }
    }
    if (images || labels) {
        if (!images || !labels)
            throw InputError((images ? images : labels)->path,
                             "an IDX file needs its partner (images and labels)");
        if (g.hasData)
            throw InputError(images->path, "a second dataset (one data file per run)");
        g.data = idxPair(images->array, images->path, labels->array, labels->path);
        g.dataPath = images->path;
        g.hasData = true;
    }
    if (!g.layers.empty() && !g.hasData)
        throw InputError(g.layers.front()->path, "MLP layers need a data file before them");
    return g;
}

Mlp mlpFromLayers(const std::vector<const LayerCsvInput*>& layers, const Dataset& data, Activation act) {
    Mlp m;
    m.act = act;
    Eigen::Index in = data.dim();
    for (size_t l = 0; l < layers.size(); ++l) {
        const Eigen::MatrixXd& M = layers[l]->M;
        if (M.cols() != in + 1)
            throw InputError(layers[l]->path,
                             "layer " + std::to_string(l + 1) +
                                 " shape mismatch: " + std::to_string(M.cols()) +
                                 " columns where in + 1 = " + std::to_string(in + 1) + " are expected",
                             1);
        m.W.emplace_back("W" + std::to_string(l), Eigen::MatrixXd(M.leftCols(in).transpose()));
        m.b.emplace_back("b" + std::to_string(l), Eigen::MatrixXd(M.col(in).transpose()));
        in = M.rows();
    }
    if (in < data.classes)
        throw InputError(layers.back()->path,
                         "last layer shape mismatch: " + std::to_string(in) + " outputs for " +
                             std::to_string(data.classes) + " classes in the data",
                         1);
    return m;
}

} // namespace pl::robusttrain
