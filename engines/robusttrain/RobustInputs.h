#pragma once
/// User files of the robusttrain panels as staged inputs: a labelled CSV (header with `label`), an
/// IDX array (images or labels), or a headerless numeric CSV holding one MLP layer (`out` rows x
/// `in + 1` columns, last column = bias). load() tells them apart by content; gatherInputs() pairs
/// IDX images with labels and checks layer shapes. Errors are pl::InputError (file, line, reason).
#include "core/Engine.h"
#include "robusttrain/LabeledData.h"
#include "robusttrain/Mlp.h"

#include <optional>

namespace pl::robusttrain {

struct LabeledCsvInput : LoadedInput {
    LabeledTable table;
};
struct IdxInput : LoadedInput {
    IdxArray array;
};
struct LayerCsvInput : LoadedInput {
    Eigen::MatrixXd M;
};

/// Parses one file (IDX by its magic, CSV with a non-numeric first line as labelled data, any
/// other CSV as a layer).
std::shared_ptr<const LoadedInput> loadRobustInput(const std::string& path);

/// The inputs of a run: the dataset (labelled CSV, or IDX images + labels in either order) and
/// the layer files in the order given.
struct GatheredInputs {
    bool hasData = false;
    std::optional<LabeledTable> table; ///< when the data came from a CSV
    Dataset data;
    std::string dataPath;
    std::vector<const LayerCsvInput*> layers;
};
/// Throws pl::InputError for layers without data, two datasets, or an unpaired IDX file.
GatheredInputs gatherInputs(const InputList& inputs);

/// The user's MLP from its layer files: layer l must have in_l + 1 columns (in_0 = the data's
/// features, in_{l+1} = rows of layer l) and the last layer at least as many rows as classes.
/// Throws pl::InputError naming the layer file, the line and both shapes.
Mlp mlpFromLayers(const std::vector<const LayerCsvInput*>& layers, const Dataset& data, Activation act);

} // namespace pl::robusttrain
