// libFuzzer target: the metadistill-bbo teacher-trajectory reader. The bytes are parsed as a teacher
// JSON (pl::search::parseTeacherTrajectories); it must return validated data (every mean of length
// dim, every covariance dim x dim, symmetric positive definite, generations strictly increasing) or
// throw pl::InputError.
#include "core/Errors.h"
#include "search/TeacherTrajectories.h"

#include <Eigen/Cholesky>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const auto in = pl::search::parseTeacherTrajectories(text, "fuzz.json");
        if (in->dim < 2 || in->trajectories.empty())
            std::abort();
        for (const auto& t : in->trajectories) {
            if (t.generations.size() < 2 || t.means.size() != t.generations.size() ||
                t.covariances.size() != t.generations.size())
                std::abort();
            for (size_t k = 0; k < t.generations.size(); ++k) {
                if (k > 0 && t.generations[k] <= t.generations[k - 1])
                    std::abort();
                if (t.means[k].size() != in->dim || t.covariances[k].rows() != in->dim ||
                    t.covariances[k].cols() != in->dim || !t.means[k].allFinite())
                    std::abort();
                if (Eigen::LLT<Eigen::MatrixXd>(t.covariances[k]).info() != Eigen::Success)
                    std::abort();
            }
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
