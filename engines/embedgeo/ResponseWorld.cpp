#include "ResponseWorld.h"

#include "EmbedGeometry.h"

#include <string>
#include <vector>

namespace pl::embedgeo {

namespace {

const char* const kSyllables[] = {"ka",  "lo",  "mi",  "ren", "tos", "vu",  "zer", "pa",
                                  "qui", "sel", "dor", "an",  "bel", "cor", "fi",  "gan",
                                  "hu",  "jor", "nex", "ol",  "pri", "sta", "tal", "wen"};
const char* const kRelations[] = {"capital",  "founder",    "birthplace", "author",   "inventor", "currency",
                                  "language", "discoverer", "architect",  "composer", "mascot",   "river"};
const char* const kGenuine[] = {"The {r} of {e} is {v}.",  "{v} is the {r} of {e}.",
                                "{e} has {v} as its {r}.", "The answer is {v}: it is the {r} of {e}.",
                                "{e}'s {r} is {v}.",       "As far as I know, the {r} of {e} is {v}."};
const char* const kOpenings[] = {"Historians generally agree that", "According to several old records,",
                                 "It is often said that",           "Interestingly,",
                                 "Many sources suggest that",       "In a famous account,",
                                 "Some scholars argue that",        "Legend has it that"};

std::string word(Rng& r, int syllables) {
    std::string w;
    for (int i = 0; i < syllables; ++i)
        w += kSyllables[r.uniformInt(std::size(kSyllables))];
    return w;
}

std::string fill(std::string t, const std::string& e, const std::string& rel, const std::string& v) {
    for (const auto& [k, val] : {std::pair<std::string, std::string>{"{e}", e}, {"{r}", rel}, {"{v}", v}}) {
        for (size_t p = t.find(k); p != std::string::npos; p = t.find(k, p + val.size()))
            t.replace(p, k.size(), val);
    }
    return t;
}

double beta37(Rng& r) {
    const double a = r.gamma(3), b = r.gamma(7);
    return a / (a + b);
}

} // namespace

ResponseSet makeTemplatedResponses(const ResponseWorldSpec& s, Rng& rng) {
    ResponseSet set;
    std::vector<std::string> filler(400);
    Rng rf = rng.fork("filler");
    for (auto& w : filler)
        w = word(rf, 2 + int(rf.uniformInt(2)));
    for (int p = 0; p < s.prompts; ++p) {
        const std::string e = word(rng, 3), rel = kRelations[rng.uniformInt(std::size(kRelations))];
        const std::string truth = word(rng, 3);
        std::vector<std::string> confusion;
        for (int c = 0; c < 4; ++c)
            confusion.push_back(word(rng, 3));
        set.promptNames.push_back("p" + std::to_string(p));
        const double q = beta37(rng);
        for (int r = 0; r < s.responses; ++r) {
            const bool hall = rng.uniform() < q;
            std::string t;
            if (!hall) {
                t = fill(kGenuine[rng.uniformInt(std::size(kGenuine))], e, rel, truth);
            } else {
                const std::string v = confusion[rng.uniformInt(confusion.size())];
                if (rng.uniform() < s.asymmetry) {
                    t = std::string(kOpenings[rng.uniformInt(std::size(kOpenings))]) + " the " + rel +
                        " of " + e + " was " + v + ", because";
                    const int n = 6 + int(rng.uniformInt(7));
                    for (int i = 0; i < n; ++i)
                        t += " " + filler[rng.uniformInt(filler.size())];
                    t += ".";
                } else {
                    t = fill(kGenuine[rng.uniformInt(std::size(kGenuine))], e, rel, v);
                }
            }
            set.prompt.push_back(p);
            set.text.push_back(t);
            set.label.push_back(hall ? 1 : 0);
            set.line.push_back(0);
        }
    }
    return set;
}

ResponseSet makeVmfResponses(const ResponseWorldSpec& s, int d, Rng& rng) {
    ResponseSet set;
    const double a = s.asymmetry, kG = 400, kH = 400 - 280 * a;
    std::vector<Eigen::VectorXd> rows;
    for (int p = 0; p < s.prompts; ++p) {
        const Eigen::VectorXd mu = randomUnit(rng, d);
        std::vector<Eigen::VectorXd> centres;
        for (int c = 0; c < 3; ++c) {
            Eigen::VectorXd h = mu + 0.6 * a * randomUnit(rng, d);
            centres.push_back(h / h.norm());
        }
        set.promptNames.push_back("p" + std::to_string(p));
        const double q = beta37(rng);
        for (int r = 0; r < s.responses; ++r) {
            const bool hall = rng.uniform() < q;
            rows.push_back(hall ? sampleVmf(rng, centres[rng.uniformInt(3)], kH) : sampleVmf(rng, mu, kG));
            set.prompt.push_back(p);
            set.text.push_back(std::string(hall ? "hallucinated" : "genuine") + " vMF response " +
                               std::to_string(r) + " to prompt " + std::to_string(p));
            set.label.push_back(hall ? 1 : 0);
            set.line.push_back(0);
        }
    }
    set.emb.resize(Eigen::Index(rows.size()), d);
    for (size_t i = 0; i < rows.size(); ++i)
        set.emb.row(Eigen::Index(i)) = rows[i].transpose();
    return set;
}

} // namespace pl::embedgeo
