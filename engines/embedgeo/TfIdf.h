#pragma once
/// TF-IDF of response texts as scikit-learn's TfidfVectorizer(ngram_range=(1, 2)) computes it:
/// lower-cased tokens of two or more word characters (ASCII letters, digits, '_' and every
/// non-ASCII UTF-8 character; only ASCII is lower-cased, so non-ASCII text may differ from sklearn), unigrams
/// and bigrams of consecutive tokens, raw counts, idf = ln((1+n)/(1+df)) + 1, rows L2-normalised, vocabulary
/// in lexicographic (byte) order. Then a sparse random projection (Achlioptas: ±sqrt(3/d) with probability
/// 1/6 each) to d dimensions and L2 normalisation. This is a bag-of-words stand-in, weaker than a sentence
/// encoder. Pure functions; any thread.

#include "core/Rng.h"

#include <Eigen/Core>

#include <string>
#include <utility>
#include <vector>

namespace pl::embedgeo {

/// The tokens of \a text (lower case).
std::vector<std::string> tokenize(const std::string& text);

struct TfIdfMatrix {
    std::vector<std::string> vocab;                        ///< sorted
    std::vector<std::vector<std::pair<int, double>>> rows; ///< per document: (term, weight), by term
    /// Dense documents x vocab matrix (tests, small corpora).
    Eigen::MatrixXd dense() const;
};
TfIdfMatrix tfidf(const std::vector<std::string>& docs);

/// rows · R with R (vocab x d) drawn from \a rng, rows then L2-normalised (zero rows stay zero).
Eigen::MatrixXd randomProjection(const TfIdfMatrix& m, int d, Rng& rng);

} // namespace pl::embedgeo
