#include "ProteinStructure.h"

namespace pl::protein {

std::string ResidueKey::text() const {
    std::string s = chain + ":" + std::to_string(number);
    if (icode != ' ' && icode != '\0')
        s += icode;
    return s;
}

} // namespace pl::protein
