#include "InsLenCaption.h"

#include "core/Errors.h"

#include <cmath>

namespace pl::hiddenstate {

namespace {

void finite(const NpyArray& a, const std::string& file, const std::string& name) {
    for (size_t i = 0; i < a.data.size(); ++i)
        if (!std::isfinite(a.data[i]))
            throw InputError(file,
                             "array '" + name + "': non-finite value at flat index " + std::to_string(i));
}

std::vector<Eigen::MatrixXd> layersOf(const NpzArchive& z, const std::string& name) {
    const NpyArray& a = z.get(name);
    if (a.shape.size() != 3)
        throw InputError(z.source, "array '" + name + "' must be [L, tokens, d], got rank " +
                                       std::to_string(a.shape.size()));
    if (a.shape[0] < 1 || a.shape[1] < 1 || a.shape[2] < 1)
        throw InputError(z.source, "array '" + name + "' is empty");
    finite(a, z.source, name);
    const auto L = a.shape[0], T = a.shape[1], d = a.shape[2];
    std::vector<Eigen::MatrixXd> out(size_t(L), Eigen::MatrixXd(T, d));
    for (int64_t l = 0; l < L; ++l)
        for (int64_t t = 0; t < T; ++t)
            for (int64_t j = 0; j < d; ++j)
                out[size_t(l)](t, j) = a.data[size_t((l * T + t) * d + j)];
    return out;
}

std::vector<int> idsOf(const NpzArchive& z, const std::string& name) {
    const NpyArray& a = z.get(name);
    if (a.shape.size() != 1)
        throw InputError(z.source, "array '" + name + "' must be 1-d");
    std::vector<int> out;
    for (size_t i = 0; i < a.data.size(); ++i) {
        const double v = a.data[i];
        if (!std::isfinite(v) || v != std::floor(v) || v < 0 || v > 2e9)
            throw InputError(z.source, "array '" + name + "': entry " + std::to_string(i) +
                                           " is not a non-negative integer id");
        out.push_back(int(v));
    }
    return out;
}

} // namespace

InsLenCaption captionFromArchive(const NpzArchive& z) {
    InsLenCaption c;
    c.source = z.source;
    c.image = layersOf(z, "image_states");
    c.instr = layersOf(z, "instr_states");
    c.answer = layersOf(z, "answer_states");
    for (const auto* blk : {&c.instr, &c.answer}) {
        const char* name = blk == &c.instr ? "instr_states" : "answer_states";
        if (blk->size() != c.image.size())
            throw InputError(z.source, std::string("array '") + name +
                                           "': L = " + std::to_string(blk->size()) +
                                           " but image_states has L = " + std::to_string(c.image.size()));
        if ((*blk)[0].cols() != c.image[0].cols())
            throw InputError(z.source, std::string("array '") + name +
                                           "': d = " + std::to_string((*blk)[0].cols()) +
                                           " but image_states has d = " + std::to_string(c.image[0].cols()));
    }
    c.answerIds = idsOf(z, "answer_ids");
    if (Eigen::Index(c.answerIds.size()) != c.answer[0].rows())
        throw InputError(z.source,
                         "array 'answer_ids' has " + std::to_string(c.answerIds.size()) +
                             " entries but answer_states has A = " + std::to_string(c.answer[0].rows()));
    c.objects = idsOf(z, "objects");
    c.labels = idsOf(z, "labels");
    if (c.labels.size() != c.objects.size())
        throw InputError(z.source, "array 'labels' has " + std::to_string(c.labels.size()) +
                                       " entries but 'objects' has " + std::to_string(c.objects.size()));
    for (size_t i = 0; i < c.labels.size(); ++i)
        if (c.labels[i] > 1)
            throw InputError(z.source, "array 'labels': entry " + std::to_string(i) + " is not 0 or 1");
    if (const NpyArray* s = z.find("svar")) {
        if (s->shape.size() != 1 || s->size() != int64_t(c.answerIds.size()))
            throw InputError(z.source,
                             "array 'svar' must be [A] with A = " + std::to_string(c.answerIds.size()));
        finite(*s, z.source, "svar");
        c.svar = s->data;
    }
    return c;
}

void checkCaptionAgainst(const InsLenCaption& c, int64_t vocab, int layers, int dim) {
    if (layers > 0 && c.layers() != layers)
        throw InputError(c.source, "array 'image_states': L = " + std::to_string(c.layers()) +
                                       " but the first caption has L = " + std::to_string(layers));
    if (c.dim() != dim)
        throw InputError(c.source, "array 'image_states': d = " + std::to_string(c.dim()) + " but " +
                                       (layers > 0 ? "the first caption" : "the LM head") +
                                       " has d = " + std::to_string(dim));
    for (const auto* ids : {&c.answerIds, &c.objects})
        for (size_t i = 0; i < ids->size(); ++i)
            if ((*ids)[i] >= vocab)
                throw InputError(c.source, std::string("array '") +
                                               (ids == &c.objects ? "objects" : "answer_ids") + "': id " +
                                               std::to_string((*ids)[i]) + " at entry " + std::to_string(i) +
                                               " is not below V = " + std::to_string(vocab));
}

} // namespace pl::hiddenstate
