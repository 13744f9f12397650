#include "Numeric.h"

#include <cstdio>
#include <sstream>

namespace pl {

std::string formatNumber(const char* printfFormat, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, printfFormat, v);
    return buf;
}

std::string formatSignificant(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

std::string formatFixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string formatStreamed(double v, int digits) {
    std::ostringstream s;
    s.precision(digits);
    s << v;
    return s.str();
}

} // namespace pl
