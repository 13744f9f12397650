#include "ProtovarInputs.h"

#include "core/CsvReader.h"
#include "core/Errors.h"

#include <png.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace pl::distill {

namespace fs = std::filesystem;

namespace {

int64_t bigEndian32(const std::string& b, size_t at) {
    int64_t v = 0;
    for (size_t j = 0; j < 4; ++j)
        v = (v << 8) | static_cast<unsigned char>(b[at + j]);
    return v;
}

int sideFor(int w, int h, const std::string& name) {
    if (w > 32 || h > 32)
        throw InputError(name, std::to_string(w) + " x " + std::to_string(h) +
                                   " images: at most 32 x 32 are supported (resize them first)");
    return std::max(w, h) <= 16 ? 16 : 32;
}

std::string joinList(const std::vector<std::string>& items, size_t shown = 12) {
    std::string s;
    for (size_t i = 0; i < items.size() && i < shown; ++i)
        s += (i ? ", " : "") + items[i];
    if (items.size() > shown)
        s += " and " + std::to_string(items.size() - shown) + " more";
    return s;
}

} // namespace

IdxInput parseProtovarIdx(const std::string& b, const std::string& name) {
    if (b.size() < 4)
        throw InputError(name, "shorter than an IDX header (4 bytes)", 0, 0, 0);
    if (b[0] != 0 || b[1] != 0 || static_cast<unsigned char>(b[2]) != 0x08)
        throw InputError(name, "not an IDX file of unsigned bytes (magic must be 00 00 08 01 or 00 00 08 03)",
                         0, 0, 0);
    const int nd = static_cast<unsigned char>(b[3]);
    if (nd != 1 && nd != 3)
        throw InputError(name,
                         "magic 00 00 08 0" + std::to_string(nd % 10) +
                             ": labels have 1 dimension (08 01), images 3 (08 03)",
                         0, 0, 3);
    if (b.size() < size_t(4 + 4 * nd))
        throw InputError(name, "header ends before its " + std::to_string(nd) + " dimension(s)", 0, 0,
                         int64_t(b.size()));
    IdxInput in;
    int64_t total = 1;
    for (int k = 0; k < nd; ++k) {
        const int64_t v = bigEndian32(b, size_t(4 + 4 * k));
        if (v == 0)
            throw InputError(name, "dimension " + std::to_string(k + 1) + " is zero", 0, 0, 4 + 4 * k);
        in.dims.push_back(v);
        total *= v;
        if (total > (int64_t(1) << 31))
            throw InputError(name, "more than 2^31 values", 0, 0, 4 + 4 * k);
    }
    const int64_t payload = int64_t(b.size()) - (4 + 4 * nd);
    if (payload != total)
        throw InputError(name,
                         "payload has " + std::to_string(payload) + " bytes where the header's counts need " +
                             std::to_string(total),
                         0, 0, 4 + 4 * nd);
    if (nd == 3)
        sideFor(int(std::min<int64_t>(in.dims[2], 1 << 20)), int(std::min<int64_t>(in.dims[1], 1 << 20)),
                name);
    in.values.assign(b.begin() + (4 + 4 * nd), b.end());
    in.path = name;
    in.kind = "idx";
    in.summary = nd == 1 ? "IDX labels: " + std::to_string(in.dims[0])
                         : "IDX images: " + std::to_string(in.dims[0]) + " of " + std::to_string(in.dims[1]) +
                               " x " + std::to_string(in.dims[2]);
    return in;
}

Eigen::VectorXd decodePngGrey(const std::string& bytes, const std::string& name, int& width, int& height,
                              bool& colour) {
    png_image im;
    std::memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&im, bytes.data(), bytes.size()))
        throw InputError(name, std::string("not a readable PNG (") + im.message + ")");
    if (im.width == 0 || im.height == 0 || im.width > 4096 || im.height > 4096) {
        png_image_free(&im);
        throw InputError(name, "PNG of " + std::to_string(im.width) + " x " + std::to_string(im.height) +
                                   " pixels (1 to 4096 per side)");
    }
    colour = (im.format & PNG_FORMAT_FLAG_COLOR) != 0;
    im.format = PNG_FORMAT_GRAY;
    std::vector<png_byte> buf(PNG_IMAGE_SIZE(im));
    if (!png_image_finish_read(&im, nullptr, buf.data(), 0, nullptr)) {
        const std::string why = im.message;
        png_image_free(&im);
        throw InputError(name, "corrupt PNG (" + why + ")");
    }
    width = int(im.width);
    height = int(im.height);
    Eigen::VectorXd v(Eigen::Index(buf.size()));
    for (size_t i = 0; i < buf.size(); ++i)
        v(Eigen::Index(i)) = buf[i] / 255.0;
    return v;
}

Eigen::VectorXd padTo(const Eigen::VectorXd& img, int w, int h, int side) {
    Eigen::VectorXd out = Eigen::VectorXd::Zero(Eigen::Index(side) * side);
    const int oy = (side - h) / 2, ox = (side - w) / 2;
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j)
            out((i + oy) * side + j + ox) = img(i * w + j);
    return out;
}

PngFolderInput readPngFolders(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw InputError(dir, "not a folder of class folders");
    std::vector<std::string> classes;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_directory())
            classes.push_back(e.path().filename().string());
    std::sort(classes.begin(), classes.end());
    if (classes.size() < 2)
        throw InputError(dir, "needs at least two class folders, found " + std::to_string(classes.size()));
    struct Img {
        Eigen::VectorXd v;
        int w, h, cls;
        bool colour;
        std::string file;
    };
    std::vector<Img> imgs;
    std::vector<std::string> corrupt, wrongSize;
    for (size_t c = 0; c < classes.size(); ++c) {
        std::vector<std::string> files;
        for (const auto& e : fs::directory_iterator(fs::path(dir) / classes[c], ec)) {
            std::string ext = e.path().extension().string();
            std::transform(ext.begin(), ext.end(), ext.begin(),
                           [](unsigned char ch) { return char(std::tolower(ch)); });
            if (e.is_regular_file() && ext == ".png")
                files.push_back(e.path().string());
        }
        std::sort(files.begin(), files.end());
        if (files.empty())
            throw InputError((fs::path(dir) / classes[c]).string(), "class folder without .png files");
        for (const std::string& f : files) {
            Img im{{}, 0, 0, int(c), false, f};
            try {
                im.v = decodePngGrey(readFileChecked(f, int64_t(16) << 20), f, im.w, im.h, im.colour);
            } catch (const InputError& e) {
                corrupt.push_back(fs::path(f).lexically_relative(dir).string());
                continue;
            }
            imgs.push_back(std::move(im));
        }
    }
    if (!corrupt.empty())
        throw InputError(dir, std::to_string(corrupt.size()) +
                                  " corrupt PNG file(s), nothing loaded: " + joinList(corrupt));
    for (const Img& im : imgs)
        if (im.w != imgs.front().w || im.h != imgs.front().h)
            wrongSize.push_back(fs::path(im.file).lexically_relative(dir).string() + " (" +
                                std::to_string(im.w) + " x " + std::to_string(im.h) + ")");
    if (!wrongSize.empty())
        throw InputError(dir, "mixed image sizes: " + std::to_string(wrongSize.size()) +
                                  " file(s) differ from " + std::to_string(imgs.front().w) + " x " +
                                  std::to_string(imgs.front().h) + ": " + joinList(wrongSize));
    PngFolderInput in;
    const int side = sideFor(imgs.front().w, imgs.front().h, dir);
    in.set.side = side;
    in.set.classes = classes;
    in.set.X.resize(Eigen::Index(imgs.size()), Eigen::Index(side) * side);
    size_t nColour = 0;
    for (size_t i = 0; i < imgs.size(); ++i) {
        in.set.X.row(Eigen::Index(i)) = padTo(imgs[i].v, imgs[i].w, imgs[i].h, side).transpose();
        in.set.y.push_back(imgs[i].cls);
        nColour += imgs[i].colour;
    }
    if (nColour > 0)
        in.set.notices.push_back(std::to_string(nColour) + " colour and " +
                                 std::to_string(imgs.size() - nColour) +
                                 " grey PNG file(s): colour converted to grey (luminance)");
    in.path = dir;
    in.kind = "png-folders";
    in.summary = std::to_string(imgs.size()) + " PNG images of " + std::to_string(imgs.front().w) + " x " +
                 std::to_string(imgs.front().h) + " in " + std::to_string(classes.size()) + " classes";
    return in;
}

std::shared_ptr<const LoadedInput> loadProtovarInput(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec))
        return std::make_shared<PngFolderInput>(readPngFolders(path));
    return std::make_shared<IdxInput>(parseProtovarIdx(readFileChecked(path, int64_t(256) << 20), path));
}

namespace {

/// Images + labels of one IDX pair (either order) as a set with classes = distinct label values.
ImageSet idxSet(const IdxInput& a, const IdxInput& b) {
    const IdxInput& img = a.dims.size() == 3 ? a : b;
    const IdxInput& lab = a.dims.size() == 3 ? b : a;
    if (img.dims.size() != 3 || lab.dims.size() != 1)
        throw InputError(a.path, "an IDX pair is one image file (08 03) and one label file (08 01); " +
                                     b.path + " does not complete it");
    if (img.dims[0] != lab.dims[0])
        throw InputError(img.path,
                         "count mismatch: " + std::to_string(img.dims[0]) + " images but " +
                             std::to_string(lab.dims[0]) + " labels in " + lab.path,
                         0, 0, 4);
    const int h = int(img.dims[1]), w = int(img.dims[2]);
    const int side = sideFor(w, h, img.path);
    ImageSet s;
    s.side = side;
    std::set<int> values(lab.values.begin(), lab.values.end());
    std::map<int, int> index;
    for (int v : values) {
        index[v] = int(s.classes.size());
        s.classes.push_back(std::to_string(v));
    }
    const int64_t n = img.dims[0];
    s.X.resize(n, Eigen::Index(side) * side);
    Eigen::VectorXd raw(Eigen::Index(w) * h);
    for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < int64_t(w) * h; ++j)
            raw(j) = img.values[size_t(i * w * h + j)] / 255.0;
        s.X.row(i) = padTo(raw, w, h, side).transpose();
        s.y.push_back(index[lab.values[size_t(i)]]);
    }
    return s;
}

/// Re-indexes \a test's classes by name into \a train's order.
void alignClasses(const ImageSet& train, ImageSet& test, const std::string& name) {
    std::vector<std::string> missing;
    std::vector<int> map;
    for (const std::string& c : test.classes) {
        auto it = std::find(train.classes.begin(), train.classes.end(), c);
        if (it == train.classes.end())
            missing.push_back(c);
        map.push_back(int(it - train.classes.begin()));
    }
    if (!missing.empty())
        throw InputError(name, "test classes missing from the training set: " + joinList(missing));
    if (test.side != train.side)
        throw InputError(name, "test images of another size than the training images");
    for (int& y : test.y)
        y = map[size_t(y)];
    test.classes = train.classes;
}

ImageSet holdOut(ImageSet& all) {
    ImageSet train, test;
    train.side = test.side = all.side;
    train.classes = test.classes = all.classes;
    train.notices = all.notices;
    std::vector<int> seen(all.classes.size(), 0);
    std::vector<Eigen::Index> tr, te;
    for (size_t i = 0; i < all.y.size(); ++i)
        (seen[size_t(all.y[i])]++ % 5 == 4 ? te : tr).push_back(Eigen::Index(i));
    auto take = [&](const std::vector<Eigen::Index>& idx, ImageSet& s) {
        s.X.resize(Eigen::Index(idx.size()), all.X.cols());
        for (size_t r = 0; r < idx.size(); ++r) {
            s.X.row(Eigen::Index(r)) = all.X.row(idx[r]);
            s.y.push_back(all.y[size_t(idx[r])]);
        }
    };
    take(tr, train);
    take(te, test);
    all = std::move(train);
    return test;
}

} // namespace

void gatherProtovarInputs(const InputList& inputs, ImageSet& train, ImageSet& test) {
    std::vector<const IdxInput*> idx;
    std::vector<const PngFolderInput*> png;
    for (const auto& in : inputs) {
        if (auto* i = dynamic_cast<const IdxInput*>(in.get()))
            idx.push_back(i);
        else if (auto* p = dynamic_cast<const PngFolderInput*>(in.get()))
            png.push_back(p);
    }
    if (!idx.empty() && !png.empty())
        throw InputError(png.front()->path, "mix of IDX files and PNG folders: give one kind");
    bool haveTest = false;
    if (!png.empty()) {
        if (png.size() > 2)
            throw InputError(png[2]->path, "at most two PNG folders (training, test)");
        train = png[0]->set;
        if (png.size() == 2) {
            test = png[1]->set;
            alignClasses(train, test, png[1]->path);
            haveTest = true;
        }
    } else {
        if (idx.size() != 2 && idx.size() != 4)
            throw InputError(idx.empty() ? std::string("inputs") : idx.back()->path,
                             "IDX files come in pairs (images + labels): got " + std::to_string(idx.size()));
        train = idxSet(*idx[0], *idx[1]);
        if (idx.size() == 4) {
            test = idxSet(*idx[2], *idx[3]);
            alignClasses(train, test, idx[2]->path);
            haveTest = true;
        }
    }
    if (!haveTest) {
        test = holdOut(train);
        train.notices.push_back("no test input: every 5th image of each class held out as the test set");
    }
}

} // namespace pl::distill
