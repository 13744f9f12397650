#include "StructureReader.h"

#include "core/Errors.h"

#include <gemmi/cif.hpp>
#include <gemmi/mmcif.hpp>
#include <gemmi/pdb.hpp>
#include <gemmi/resinfo.hpp>

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace pl::protein {

namespace {

constexpr int64_t kMaxAtoms = 2'000'000;

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// True when the name or the first meaningful line says mmCIF.
bool looksLikeCif(const std::string& bytes, const std::string& name) {
    std::string n = lower(name);
    if (endsWith(n, ".gz"))
        n.resize(n.size() - 3);
    if (endsWith(n, ".cif") || endsWith(n, ".mmcif"))
        return true;
    if (endsWith(n, ".pdb") || endsWith(n, ".ent"))
        return false;
    size_t pos = 0;
    while (pos < bytes.size()) {
        size_t end = bytes.find('\n', pos);
        if (end == std::string::npos)
            end = bytes.size();
        std::string line = bytes.substr(pos, end - pos);
        const size_t first = line.find_first_not_of(" \t\r");
        if (first != std::string::npos && line[first] != '#')
            return lower(line.substr(first, 5)) == "data_";
        pos = end + 1;
    }
    return false;
}

/// The first number after "line " in a gemmi message (0 when none).
int64_t lineFromMessage(const std::string& what) {
    const size_t p = what.find("line ");
    if (p == std::string::npos)
        return 0;
    return std::strtoll(what.c_str() + p + 5, nullptr, 10);
}

/// Splits into lines (without the newline and a trailing '\r').
std::vector<std::string_view> splitLines(const std::string& bytes) {
    std::vector<std::string_view> lines;
    size_t pos = 0;
    while (pos < bytes.size()) {
        size_t end = bytes.find('\n', pos);
        if (end == std::string::npos)
            end = bytes.size();
        size_t len = end - pos;
        if (len > 0 && bytes[pos + len - 1] == '\r')
            --len;
        lines.emplace_back(bytes.data() + pos, len);
        pos = end + 1;
    }
    return lines;
}

/// Parses one fixed-column coordinate field; false when it is empty, not a number or not finite.
bool parseCoordinate(std::string_view field, double* out) {
    std::string s(field);
    const size_t a = s.find_first_not_of(' ');
    if (a == std::string::npos)
        return false;
    const size_t b = s.find_last_not_of(' ');
    s = s.substr(a, b - a + 1);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size())
        return false;
    *out = v;
    return std::isfinite(v);
}

/// Our own checks of PDB text before gemmi sees it (gemmi reads short or garbled coordinate
/// fields as zeros and accepts an unterminated MODEL).
void validatePdb(const std::vector<std::string_view>& lines, const std::string& name) {
    bool inModel = false;
    int64_t modelLine = 0;
    int64_t atoms = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string_view l = lines[i];
        const int64_t ln = int64_t(i) + 1;
        const std::string_view rec = l.substr(0, std::min<size_t>(6, l.size()));
        if (rec.substr(0, 4) == "ATOM" || rec == "HETATM") {
            if (l.size() < 54)
                throw InputError(name,
                                 "truncated " + std::string(rec.substr(0, rec == "HETATM" ? 6 : 4)) +
                                     " record: " + std::to_string(l.size()) +
                                     " characters, the coordinates need columns 31-54",
                                 ln);
            static const char* axis[] = {"x", "y", "z"};
            for (int c = 0; c < 3; ++c) {
                double v = 0;
                const std::string_view f = l.substr(30 + 8 * size_t(c), 8);
                if (!parseCoordinate(f, &v))
                    throw InputError(name,
                                     std::string("bad ") + axis[c] + " coordinate '" + std::string(f) +
                                         "' (columns " + std::to_string(31 + 8 * c) + "-" +
                                         std::to_string(38 + 8 * c) + ")",
                                     ln, 31 + 8 * c);
            }
            if (++atoms > kMaxAtoms)
                throw InputError(name, "more than 2,000,000 atoms; load a C-alpha-only extract instead", ln);
        } else if (rec == "MODEL " || rec == "MODEL") {
            if (inModel)
                throw InputError(
                    name, "nested MODEL: the MODEL at line " + std::to_string(modelLine) + " has no ENDMDL",
                    ln);
            inModel = true;
            modelLine = ln;
        } else if (rec == "ENDMDL") {
            if (!inModel)
                throw InputError(name, "ENDMDL without MODEL", ln);
            inModel = false;
        } else if (rec == "END" || rec == "END   ") {
            break;
        }
    }
    if (inModel)
        throw InputError(name, "MODEL without ENDMDL (file truncated?)", modelLine);
    if (atoms == 0)
        throw InputError(name, "no coordinates found (no ATOM/HETATM records)");
}

/// Lines of the rows of the _atom_site loop, assuming one row per line (as wwPDB writes them);
/// used only to name a line in messages.
std::vector<int64_t> atomSiteRowLines(const std::vector<std::string_view>& lines) {
    std::vector<int64_t> rows;
    bool inTags = false, inRows = false;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string_view l = lines[i];
        const size_t a = l.find_first_not_of(" \t");
        l = a == std::string_view::npos ? std::string_view{} : l.substr(a);
        if (!inRows) {
            if (l.rfind("_atom_site.", 0) == 0) {
                inTags = true;
                continue;
            }
            if (inTags && !l.empty() && l[0] != '_' && l[0] != '#') {
                inRows = true;
            } else {
                if (!l.empty() && l[0] != '#')
                    inTags = false;
                continue;
            }
        }
        if (l.empty() || l[0] == '#')
            continue;
        if (l[0] == '_' || l.rfind("loop_", 0) == 0 || l.rfind("data_", 0) == 0)
            break;
        rows.push_back(int64_t(i) + 1);
    }
    return rows;
}

gemmi::Structure readCif(const std::string& bytes, const std::string& name) {
    gemmi::cif::Document doc;
    try {
        doc = gemmi::cif::read_memory(bytes.data(), bytes.size(), name.c_str());
    } catch (const tao::pegtl::parse_error& e) {
        int64_t line = 0, col = 0;
        if (!e.positions().empty()) {
            line = int64_t(e.positions().front().line);
            col = int64_t(e.positions().front().column);
        }
        throw InputError(name, "mmCIF syntax: " + std::string(e.message()), line, col);
    } catch (const std::exception& e) {
        throw InputError(name, std::string("mmCIF: ") + e.what(), lineFromMessage(e.what()));
    }
    if (doc.blocks.empty())
        throw InputError(name, "no data_ block");
    gemmi::cif::Block& block = doc.blocks.front();
    if (!block.find_values("_atom_site.Cartn_x").item() && !block.find_values("_atom_site.id").item())
        throw InputError(name, "no coordinates found (no _atom_site loop)");
    // The tags gemmi's reader cannot do without (it silently reads nothing otherwise).
    static const char* required[] = {"type_symbol", "label_alt_id", "label_asym_id",  "Cartn_x",    "Cartn_y",
                                     "Cartn_z",     "occupancy",    "B_iso_or_equiv", "auth_seq_id"};
    std::string missing;
    for (const char* t : required)
        if (!block.find_values(std::string("_atom_site.") + t).item())
            missing += (missing.empty() ? "_atom_site." : ", _atom_site.") + std::string(t);
    if (!block.find_values("_atom_site.auth_atom_id").item() &&
        !block.find_values("_atom_site.label_atom_id").item())
        missing += (missing.empty() ? "" : ", ") + std::string("_atom_site.auth_atom_id or label_atom_id");
    if (!block.find_values("_atom_site.auth_comp_id").item() &&
        !block.find_values("_atom_site.label_comp_id").item())
        missing += (missing.empty() ? "" : ", ") + std::string("_atom_site.auth_comp_id or label_comp_id");
    if (!missing.empty())
        throw InputError(name, "missing mmCIF tags: " + missing);
    const auto lines = splitLines(bytes);
    std::vector<int64_t> rowLines;
    static const char* axis[] = {"x", "y", "z"};
    for (int c = 0; c < 3; ++c) {
        gemmi::cif::Column col = block.find_values(std::string("_atom_site.Cartn_") + axis[c]);
        if (col.length() > size_t(kMaxAtoms))
            throw InputError(name, "more than 2,000,000 atoms; load a C-alpha-only extract instead");
        for (int i = 0; i < int(col.length()); ++i) {
            const double v = gemmi::cif::as_number(col[i]);
            if (!std::isfinite(v)) {
                if (rowLines.empty())
                    rowLines = atomSiteRowLines(lines);
                const int64_t ln = size_t(i) < rowLines.size() ? rowLines[size_t(i)] : 0;
                throw InputError(name,
                                 "bad coordinate _atom_site.Cartn_" + std::string(axis[c]) + " '" + col[i] +
                                     "' in atom_site row " + std::to_string(i + 1),
                                 ln);
            }
        }
    }
    try {
        return gemmi::make_structure_from_block(block);
    } catch (const std::exception& e) {
        throw InputError(name, std::string("mmCIF: ") + e.what(), lineFromMessage(e.what()));
    }
}

bool isWater(const std::string& resName) {
    return resName == "HOH" || resName == "WAT" || resName == "DOD" || resName == "H2O";
}

/// The C-alpha of a residue: blank altloc, else the highest occupancy, ties to the first letter.
const gemmi::Atom* pickCa(const gemmi::Residue& r) {
    const gemmi::Atom* best = nullptr;
    for (const gemmi::Atom& a : r.atoms) {
        if (a.name != "CA" || (a.element != gemmi::El::C && a.element != gemmi::El::X))
            continue;
        if (!best) {
            best = &a;
            continue;
        }
        const bool bBlank = best->altloc == '\0';
        const bool aBlank = a.altloc == '\0';
        if (bBlank)
            continue;
        if (aBlank || a.occ > best->occ || (a.occ == best->occ && a.altloc < best->altloc))
            best = &a;
    }
    return best;
}

std::shared_ptr<ProteinStructure> reduce(const gemmi::Structure& st, const std::string& name,
                                         const std::string& format) {
    auto out = std::make_shared<ProteinStructure>();
    out->path = name;
    out->format = format;
    out->kind = format;
    int dropped = 0;
    for (const gemmi::Model& m : st.models) {
        ProteinModel pm;
        pm.name = m.name;
        std::set<ResidueKey> seen;
        std::vector<Eigen::Vector3d> pts;
        for (const gemmi::Chain& ch : m.chains) {
            for (const gemmi::Residue& r : ch.residues) {
                if (isWater(r.name))
                    continue;
                const gemmi::ResidueInfo info = gemmi::find_tabulated_residue(r.name);
                const gemmi::Atom* ca = pickCa(r);
                const bool aminoAcid = info.is_amino_acid() || (!info.found() && ca && r.het_flag != 'H');
                if (!aminoAcid || !ca) {
                    if (!aminoAcid)
                        pm.ligandAtoms += int(r.atoms.size());
                    continue;
                }
                ResidueKey k;
                k.chain = ch.name;
                k.number = r.seqid.num.has_value() ? r.seqid.num.value : 0;
                k.icode = r.seqid.icode == '\0' ? ' ' : r.seqid.icode;
                if (!seen.insert(k).second) {
                    ++dropped;
                    continue;
                }
                if (!std::isfinite(ca->pos.x) || !std::isfinite(ca->pos.y) || !std::isfinite(ca->pos.z))
                    throw InputError(name, "non-finite coordinate of C-alpha " + k.text());
                pm.keys.push_back(k);
                pm.resNames.push_back(r.name);
                pts.emplace_back(ca->pos.x, ca->pos.y, ca->pos.z);
            }
        }
        if (pts.empty()) {
            out->warnings.push_back("model " + m.name + " has no protein C-alpha atoms; skipped");
            continue;
        }
        pm.ca.resize(3, Eigen::Index(pts.size()));
        for (size_t i = 0; i < pts.size(); ++i)
            pm.ca.col(Eigen::Index(i)) = pts[i];
        out->models.push_back(std::move(pm));
    }
    if (dropped > 0)
        out->warnings.push_back(std::to_string(dropped) + " duplicate residue(s) (same chain, number and "
                                                          "insertion code) dropped; the first was kept");
    if (out->models.empty())
        throw InputError(name, "no protein C-alpha atoms found");
    const ProteinModel& m0 = out->models.front();
    std::set<std::string> chains;
    for (const auto& k : m0.keys)
        chains.insert(k.chain);
    out->summary = format + ": " + std::to_string(out->models.size()) + " model(s), " +
                   std::to_string(chains.size()) + " chain(s), " + std::to_string(m0.keys.size()) +
                   " residues with C-alpha" +
                   (m0.ligandAtoms > 0 ? ", " + std::to_string(m0.ligandAtoms) + " ligand atoms" : "");
    return out;
}

} // namespace

std::string StructureReader::gunzip(const std::string& bytes, const std::string& name) {
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 32) != Z_OK)
        throw InputError(name, "cannot initialise zlib");
    std::string out;
    char buf[1 << 16];
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    zs.avail_in = uInt(bytes.size());
    int rc = Z_OK;
    while (true) {
        zs.next_out = reinterpret_cast<Bytef*>(buf);
        zs.avail_out = sizeof buf;
        rc = inflate(&zs, Z_NO_FLUSH);
        out.append(buf, sizeof buf - zs.avail_out);
        if (out.size() > kMaxBytes) {
            inflateEnd(&zs);
            throw InputError(name, "decompressed data larger than 512 MiB");
        }
        if (rc == Z_STREAM_END) {
            if (zs.avail_in == 0)
                break;
            inflateReset(&zs); // concatenated gzip members
            continue;
        }
        if (rc != Z_OK) {
            const int64_t off = int64_t(zs.total_in);
            const std::string msg = zs.msg ? zs.msg : "";
            inflateEnd(&zs);
            throw InputError(name, rc == Z_BUF_ERROR ? "truncated gzip data" : "corrupt gzip data: " + msg, 0,
                             0, off);
        }
    }
    inflateEnd(&zs);
    return out;
}

std::shared_ptr<ProteinStructure> StructureReader::readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open file");
    std::ostringstream ss;
    ss << in.rdbuf();
    std::string bytes = ss.str();
    if (bytes.size() > kMaxBytes)
        throw InputError(path, "file larger than 512 MiB");
    return parse(bytes, path);
}

std::shared_ptr<ProteinStructure> StructureReader::parse(const std::string& raw, const std::string& name) {
    std::string unzipped;
    const std::string* bytes = &raw;
    if (raw.size() >= 2 && static_cast<unsigned char>(raw[0]) == 0x1f &&
        static_cast<unsigned char>(raw[1]) == 0x8b) {
        unzipped = gunzip(raw, name);
        bytes = &unzipped;
    }
    if (bytes->empty())
        throw InputError(name, "empty file: no coordinates found");
    if (bytes->find('\0') != std::string::npos)
        throw InputError(name, "binary data (NUL byte) in a text structure file", 0, 0,
                         int64_t(bytes->find('\0')));
    gemmi::Structure st;
    std::string format;
    if (looksLikeCif(*bytes, name)) {
        format = "mmcif";
        st = readCif(*bytes, name);
    } else {
        format = "pdb";
        // The PDB format is ASCII; gemmi's record-type hashing also shifts plain (signed) chars, so
        // a byte >= 0x80 must not reach it (found by fuzz_pdb).
        for (size_t i = 0; i < bytes->size(); ++i)
            if (static_cast<unsigned char>((*bytes)[i]) >= 0x80) {
                const int64_t line = 1 + std::count(bytes->begin(), bytes->begin() + int64_t(i), '\n');
                throw InputError(name, "non-ASCII byte in a PDB file (the format is ASCII)", line, 0, int64_t(i));
            }
        validatePdb(splitLines(*bytes), name);
        try {
            st = gemmi::read_pdb_from_memory(bytes->data(), bytes->size(), name);
        } catch (const std::exception& e) {
            throw InputError(name, std::string("PDB: ") + e.what(), lineFromMessage(e.what()));
        }
    }
    return reduce(st, name, format);
}

} // namespace pl::protein
