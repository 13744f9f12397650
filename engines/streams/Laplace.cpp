#include "streams/Laplace.h"

#include <cmath>

namespace pl::streams {

double laplace(Rng& rng, double b) {
    const double u = rng.uniform() - 0.5; // [-1/2, 1/2)
    const double a = std::abs(u);
    if (b <= 0 || a >= 0.5)
        return u < 0 ? -b * 40.0 : 0.0; // u = -1/2 exactly: the far tail, clipped at 40 scales
    const double mag = -b * std::log1p(-2.0 * a);
    return u < 0 ? -mag : mag;
}

} // namespace pl::streams
