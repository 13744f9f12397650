#pragma once
/// Stand-ins of the visual-persuasion panel (spec 004 §14): a procedural product renderer (in place
/// of an image-generation model) with an identity-preserving edit vocabulary, a normaliser (the
/// mitigation), and a hidden-utility agent (in place of a VLM): U(img) = v . phi(img), phi = seeded
/// random 5 x 5 filters on RGB + ReLU + 3 x 3 region pooling, v a ridge readout planted to follow a
/// designed taste (brightness, centring, warm background, shadow, clutter, one interaction).
/// Pure C++; objects are immutable after construction (any thread).
#include "core/Rng.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::convimg {

/// One group of mutually exclusive edits (a variant takes at most one option per group).
struct EditGroup {
    std::string name;                 ///< e.g. "background"
    std::vector<std::string> options; ///< without "unchanged"
};

/// The edit vocabulary (13 groups, 27 edits).
const std::vector<EditGroup>& editGroups();
/// Number of edits (sum of the options of every group).
int editCount();
/// "group: option" of edit e (0-based, groups in order).
std::string editName(int e);

/// A variant of a product image: option per group, 0 = unchanged, 1..k = options[k - 1].
using Variant = std::vector<int>;
/// The original image (all groups unchanged).
Variant originalVariant();
/// 0/1 indicator of every edit of v (length editCount()).
Eigen::VectorXd editIndicators(const Variant& v);
/// Variant with exactly edit e applied to the original.
Variant singleEdit(int e);
/// The edit chain as text, e.g. "background: wood + shadow: on" ("original" when empty).
std::string variantText(const Variant& v);

/// An RGB image: 3 x (size * size), column y * size + x, values in [0, 1]; and the product's mask
/// (what a segmenter would return; used by the normaliser).
struct Image {
    int size = 0;
    Eigen::MatrixXd rgb;
    Eigen::VectorXd mask;
};

/// Renders product p (0-based; its shape and colour are its identity) with the edits of v.
Image renderProduct(int product, const Variant& v, int size);
/// Visual normalisation (mitigation): background uniform grey, object recentred on its mask's
/// centroid, luminance mean and contrast standardised.
Image normaliseImage(const Image& img);
/// Mean luminance per pixel (size x size, [row = y][column = x]).
Eigen::MatrixXd luminance(const Image& img);

/// Which planted taste the agent's readout follows.
enum class AgentTaste { Planted, Brightness, Layout };

/// The stand-in VLM. P(first chosen) = sigma((U(first) - U(second) + bPos) / tau).
class PersuasionAgent {
public:
    /// Draws the filters and fits the readout on 240 random renders (stream "fit" of \a rng).
    PersuasionAgent(AgentTaste taste, int size, int products, double tau, double bPos, const Rng& rng);
    /// Utility of an image (dimensionless).
    double utility(const Image& img) const;
    /// Probability that the first shown image is chosen.
    double pFirst(double uFirst, double uSecond) const;
    double tau() const { return m_tau; }
    /// R^2 of the readout against the planted taste on its fitting renders.
    double fitR2() const { return m_r2; }

    /// The agent's parameters (read-only views, for the benchmark's peer): filters 32 x 75 (column
    /// channel * 25 + dy * 5 + dx, applied to rgb - 0.5 with zero padding), per-filter bias, feature
    /// standardisation (288 = region * 32 + filter) and readout; U = offset + v . (f - mu) / sd.
    struct Weights {
        const Eigen::MatrixXd& filters;
        const Eigen::VectorXd& bias;
        const Eigen::VectorXd& mu;
        const Eigen::VectorXd& sd;
        const Eigen::VectorXd& v;
        double offset;
    };
    Weights weights() const { return {m_filters, m_bias, m_mu, m_sd, m_v, m_offset}; }

private:
    Eigen::VectorXd features(const Image& img) const;
    Eigen::MatrixXd m_filters; ///< 32 x 75
    Eigen::VectorXd m_bias;    ///< 32
    Eigen::VectorXd m_mu, m_sd, m_v;
    double m_offset = 0, m_tau = 1, m_bPos = 0, m_r2 = 0;
};

} // namespace pl::convimg
