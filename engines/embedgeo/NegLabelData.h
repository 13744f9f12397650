#pragma once
/// The data of the negative-label-ood panel: unit-row ID label embeddings, negative label
/// embeddings and image embeddings with their ID flags, from an `.npz` (or `.npy` files named by
/// array: id_text, neg_text, images, is_id) or from the §7 CLIP stand-in. Plain value; any thread.

#include "core/Engine.h"
#include "core/Rng.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::embedgeo {

struct NegLabelData {
    Eigen::MatrixXd idText;  ///< K x d, unit rows
    Eigen::MatrixXd negText; ///< M x d, unit rows
    Eigen::MatrixXd images;  ///< N x d, unit rows
    std::vector<int> isId;   ///< N, 1 = in-distribution
    std::vector<std::string> notes;
};

/// One loaded file: the arrays it held (an .npz holds all four, an .npy one, named by its stem).
struct NegLabelInput : LoadedInput {
    std::vector<std::pair<std::string, Eigen::MatrixXd>> arrays;
};

/// Reads an .npz or an .npy named id_text/neg_text/images/is_id. Throws pl::InputError naming the
/// file, array and reason (unknown array name, NaN, wrong rank).
std::shared_ptr<const NegLabelInput> loadNegLabelFile(const std::string& path);

/// Assembles and validates the four arrays from the loaded files: shapes (named), zero rows,
/// is_id values and count. Rows that are not unit length are renormalised with a note.
NegLabelData assembleNegLabel(const InputList& inputs);

/// Parameters of the §7 stand-in: C concepts in clusters, K ID concepts, a pool of 5M candidates
/// (the non-ID concepts except an open-world share of the OOD ones, plus random "words") mined to
/// the M least similar to the ID labels; images vMF around normalise(t_c + 1.5 g) (g: modality gap).
struct NegLabelWorldSpec {
    int concepts = 400;
    int dim = 128;
    int idClasses = 50;
    int negatives = 1000;
    int imagesPerSide = 1000; ///< ID test images = OOD test images
    double openWorldBias = 0; ///< share of the OOD concepts missing from the pool
};

/// The stand-in world: test data, a clean validation split and the near-synonym outlier bank.
struct NegLabelWorld {
    NegLabelData test;
    NegLabelData validation;     ///< same labels, fresh images (300 + 300)
    Eigen::MatrixXd outlierBank; ///< 50 x d near-synonyms of random ID labels (cos ~ 0.95)
};
NegLabelWorld makeNegLabelWorld(const NegLabelWorldSpec& spec, Rng& rng);

/// Synonym outliers for given data: \a count rows normalise(t_k + 0.3 v) for random ID labels k.
Eigen::MatrixXd makeSynonymOutliers(const Eigen::MatrixXd& idText, int count, Rng& rng);

/// Keeps the \a count rows of \a neg with the smallest max-cosine to \a idText (NegMining; ties to
/// the lower index); count <= 0 or >= M keeps all.
Eigen::MatrixXd mineNegatives(const Eigen::MatrixXd& neg, const Eigen::MatrixXd& idText, int count);

} // namespace pl::embedgeo
