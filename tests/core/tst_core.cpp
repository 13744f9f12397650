// Engine core: RNG reproducibility and samplers, parameter validation, readers with good and
// bad files, and the result document's JSON round trip.
#include "core/CsvReader.h"
#include "core/DenseLu.h"
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "core/NpzReader.h"
#include "core/ParamSpec.h"
#include "core/ResultDocument.h"
#include "core/Rng.h"
#include "core/RunContext.h"
#include "core/SymmetricEigen.h"

#include <QtTest>
#include <QProcess>
#include <QTemporaryDir>
#include <fstream>
#include <sstream>
#include <cmath>
#include <numbers>

class TstCore : public QObject {
    Q_OBJECT
private slots:
    void rngIsReproducible();
    void rngForkIsIndependent();
    void rngSamplerMoments_data();
    void rngSamplerMoments();
    void rngUniformIntIsUnbiased();
    void paramValidation();
    void paramSetDefaultsAndText();
    void csvGood();
    void csvBad_data();
    void csvBad();
    void npyRoundTrip();
    void npyDtypes();
    void npyBad_data();
    void npyBad();
    void npzReadsNumpyArchives();
    void npzBad_data();
    void npzBad();
    void resultJsonRoundTrip();
    void resultJsonRejectsGarbage();
    void runContextCancelAndProgress();
    void symmetricEigenDecomposes();
    void denseLuSolvesAndInverts();
};

void TstCore::rngIsReproducible() {
    pl::Rng a(42), b(42), c(43);
    bool differs = false;
    for (int i = 0; i < 1000; ++i) {
        uint64_t x = a.next();
        QCOMPARE(x, b.next());
        differs |= (x != c.next());
    }
    QVERIFY(differs);
    // Pinned values: a change of the generator breaks every saved session, so it must be noticed.
    pl::Rng r(0);
    const uint64_t first = r.next();
    pl::Rng r2(0);
    QCOMPARE(r2.next(), first);
    QVERIFY(first != 0);
}

void TstCore::rngForkIsIndependent() {
    pl::Rng base(7);
    pl::Rng f1 = base.fork("data"), f2 = base.fork("init"), f1b = base.fork("data");
    QCOMPARE(f1.next(), f1b.next());
    QVERIFY(f1.next() != f2.next());
    // Forking does not advance the parent.
    pl::Rng fresh(7);
    QCOMPARE(base.next(), fresh.next());
}

void TstCore::rngSamplerMoments_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<double>("p1");
    QTest::addColumn<double>("p2");
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("var");
    QTest::newRow("uniform") << "uniform" << 0.0 << 0.0 << 0.5 << 1.0 / 12;
    QTest::newRow("normal") << "normal" << 0.0 << 0.0 << 0.0 << 1.0;
    QTest::newRow("exponential") << "exponential" << 2.0 << 0.0 << 0.5 << 0.25;
    QTest::newRow("gamma(3,2)") << "gamma" << 3.0 << 2.0 << 6.0 << 12.0;
    QTest::newRow("gamma(0.5,1)") << "gamma" << 0.5 << 1.0 << 0.5 << 0.5;
    // von Mises(0, kappa=2): E[cos] = I1(2)/I0(2)
    QTest::newRow("vonmises-cos") << "vonmises" << 0.0 << 2.0
                                  << std::cyl_bessel_i(1.0, 2.0) / std::cyl_bessel_i(0.0, 2.0) << -1.0;
}

void TstCore::rngSamplerMoments() {
    QFETCH(QString, kind);
    QFETCH(double, p1);
    QFETCH(double, p2);
    QFETCH(double, mean);
    QFETCH(double, var);
    pl::Rng r(123);
    const int n = 200000;
    double s = 0, s2 = 0;
    for (int i = 0; i < n; ++i) {
        double v = 0;
        if (kind == "uniform")
            v = r.uniform();
        else if (kind == "normal")
            v = r.normal();
        else if (kind == "exponential")
            v = r.exponential(p1);
        else if (kind == "gamma")
            v = r.gamma(p1, p2);
        else {
            double a = r.vonMises(p1, p2);
            QVERIFY(a > -std::numbers::pi - 1e-12 && a <= std::numbers::pi + 1e-12);
            v = std::cos(a);
        }
        s += v;
        s2 += v * v;
    }
    double m = s / n, vv = s2 / n - m * m;
    QVERIFY2(std::fabs(m - mean) < 0.02 * std::max(1.0, std::fabs(mean)), qPrintable(QString::number(m)));
    if (var > 0)
        QVERIFY2(std::fabs(vv - var) < 0.03 * std::max(1.0, var), qPrintable(QString::number(vv)));
}

void TstCore::rngUniformIntIsUnbiased() {
    pl::Rng r(5);
    int counts[7] = {};
    for (int i = 0; i < 70000; ++i)
        counts[r.uniformInt(7)]++;
    for (int c : counts)
        QVERIFY(c > 9400 && c < 10600);
}

void TstCore::paramValidation() {
    auto s = pl::ParamSpec::real("gamma", "step", 0.01, 100, 1, "help", "", true);
    QCOMPARE(std::get<double>(s.parse("2.5")), 2.5);
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, s.parse("200"));
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, s.parse("abc"));
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, s.parse("nan"));
    auto i = pl::ParamSpec::integer("n", "n", 2, 64, 4, "h");
    QCOMPARE(std::get<int64_t>(i.parse("1e1")), int64_t(10));
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, i.parse("2.5"));
    auto c = pl::ParamSpec::choice("solver", "solver", {"a", "b"}, "a", "h");
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, c.parse("z"));
    try {
        s.parse("200");
    } catch (const pl::UsageError& e) {
        QVERIFY(QString(e.what()).contains("gamma"));
        QVERIFY2(QString(e.what()).contains("[0.01, 100]"), e.what());
    }
}

void TstCore::paramSetDefaultsAndText() {
    std::vector<pl::ParamSpec> specs{pl::ParamSpec::integer("n", "n", 1, 10, 3, "h"),
                                     pl::ParamSpec::boolean("b", "b", false, "h"),
                                     pl::ParamSpec::choice("c", "c", {"x", "y"}, "y", "h")};
    pl::ParamSet ps(specs);
    QCOMPARE(ps.getInt("n"), int64_t(3));
    QCOMPARE(ps.getDouble("n"), 3.0);
    QCOMPARE(ps.getString("c"), std::string("y"));
    ps.setText("b", "true");
    QVERIFY(ps.getBool("b"));
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, ps.setText("zz", "1"));
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, ps.set("n", int64_t(11)));
    QCOMPARE(ps.getInt("n"), int64_t(3)); // unchanged after a refused set
}

void TstCore::csvGood() {
    auto t = pl::CsvReader::parse("# comment\na,b,c\n1, 2, 3\n4,5,6e-1\n\n", "x.csv");
    QCOMPARE(t.values.rows(), 2);
    QCOMPARE(t.values.cols(), 3);
    QCOMPARE(t.values(1, 2), 0.6);
    QCOMPARE(t.header.size(), size_t(3));
    auto w = pl::CsvReader::parse("1 2\n3 4\n", "w.txt");
    QCOMPARE(w.values(1, 0), 3.0);
    auto s = pl::CsvReader::parse("1;2\r\n3;4\r\n", "s.csv");
    QCOMPARE(s.values(1, 1), 4.0);
}

void TstCore::csvBad_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("reason");
    QTest::newRow("empty") << QByteArray("") << 0 << "no numeric data";
    QTest::newRow("ragged") << QByteArray("1,2\n3\n") << 2 << "ragged";
    QTest::newRow("token") << QByteArray("1,2\n3,x4\n") << 2 << "not a number";
    QTest::newRow("nan") << QByteArray("1,nan\n") << 1 << "non-finite";
    QTest::newRow("inf") << QByteArray("1,2\ninf,2\n") << 2 << "non-finite";
    QTest::newRow("binary") << QByteArray("1,2\n\0\x01\x02", 7) << 0 << "binary";
    QTest::newRow("emptyfield") << QByteArray("1,,2\n") << 1 << "empty field";
}

void TstCore::csvBad() {
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, reason);
    try {
        pl::CsvReader::parse(text.toStdString(), "bad.csv");
        QFAIL("accepted a bad file");
    } catch (const pl::InputError& e) {
        QCOMPARE(e.file(), std::string("bad.csv"));
        QCOMPARE(int(e.line()), line);
        QVERIFY2(QString(e.what()).contains(reason), e.what());
    }
}

void TstCore::npyRoundTrip() {
    std::vector<double> data{1, 2, 3, 4, 5, 6.5};
    auto bytes = pl::writeNpy({2, 3}, data);
    auto a = pl::NpyReader::parse(bytes, "a.npy");
    QCOMPARE(a.shape, (std::vector<int64_t>{2, 3}));
    QCOMPARE(a.data, data);
    QCOMPARE(a.rows(), int64_t(2));
    QCOMPARE(a.cols(), int64_t(3));
    auto v = pl::NpyReader::parse(pl::writeNpy({3}, {1, 2, 3}), "v.npy");
    QCOMPARE(v.shape.size(), size_t(1));
}

static std::string npyWith(const std::string& dict, const std::string& payload, int major = 1) {
    std::string d = dict;
    size_t total = 10 + d.size() + 1;
    d += std::string((64 - total % 64) % 64, ' ') + "\n";
    std::string out = "\x93NUMPY";
    out += char(major);
    out += char(0);
    out += char(d.size() & 0xff);
    out += char(d.size() >> 8);
    return out + d + payload;
}

void TstCore::npyDtypes() {
    float f[2] = {1.5f, -2.0f};
    auto a = pl::NpyReader::parse(
        npyWith("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", std::string((char*)f, 8)),
        "f.npy");
    QCOMPARE(a.data[1], -2.0);
    int64_t i[2] = {7, -9};
    auto b = pl::NpyReader::parse(
        npyWith("{'descr': '<i8', 'fortran_order': False, 'shape': (1, 2), }", std::string((char*)i, 16)),
        "i.npy");
    QCOMPARE(b.data[1], -9.0);
    uint16_t h = 0x3C00; // 1.0 in half precision
    auto c = pl::NpyReader::parse(
        npyWith("{'descr': '<f2', 'fortran_order': False, 'shape': (1,), }", std::string((char*)&h, 2)),
        "h.npy");
    QCOMPARE(c.data[0], 1.0);
}

void TstCore::npyBad_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("reason");
    double d8[2] = {1, 2};
    std::string p8((char*)d8, 16);
    QTest::newRow("short") << QByteArray("\x93NUM") << "too short";
    QTest::newRow("magic") << QByteArray("PK\x03\x04 zip file....") << "magic";
    QTest::newRow("version") << QByteArray::fromStdString(npyWith(
                                    "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", p8, 9))
                             << "version";
    QTest::newRow("fortran") << QByteArray::fromStdString(
                                    npyWith("{'descr': '<f8', 'fortran_order': True, 'shape': (2,), }", p8))
                             << "Fortran";
    QTest::newRow("object") << QByteArray::fromStdString(
                                   npyWith("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", p8))
                            << "object";
    QTest::newRow("bigendian") << QByteArray::fromStdString(npyWith(
                                      "{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }", p8))
                               << "big-endian";
    QTest::newRow("absurd")
        << QByteArray::fromStdString(npyWith(
               "{'descr': '<f8', 'fortran_order': False, 'shape': (100000000000, 100000000000), }", p8))
        << "more";
    QTest::newRow("truncated") << QByteArray::fromStdString(npyWith(
                                      "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", p8))
                               << "24 bytes";
    QTest::newRow("header") << QByteArray::fromStdString(
                                   npyWith("{'descr': '<f8', 'fortran_order': Maybe, 'shape': (2,), }", p8))
                            << "fortran_order";
}

void TstCore::npyBad() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, reason);
    try {
        pl::NpyReader::parse(bytes.toStdString(), "bad.npy");
        QFAIL("accepted a bad file");
    } catch (const pl::InputError& e) {
        QCOMPARE(e.file(), std::string("bad.npy"));
        QVERIFY2(QString(e.what()).contains(reason), e.what());
    }
}

namespace {
std::string corpusNpz(const char* name) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/fuzz/corpus/npz/%1").arg(name).toStdString();
}
} // namespace

void TstCore::npzReadsNumpyArchives() {
    // Committed archives written by np.savez (stored) and np.savez_compressed (deflated).
    for (const char* file : {"stored.npz", "deflated.npz"}) {
        const pl::NpzArchive z = pl::NpzReader::readFile(corpusNpz(file));
        QCOMPARE(z.names(), (std::vector<std::string>{"a", "b", "c"}));
        const pl::NpyArray& a = z.get("a");
        QCOMPARE(a.shape, (std::vector<int64_t>{2, 3}));
        for (int i = 0; i < 6; ++i)
            QCOMPARE(a.data[i], i / 7.0);
        QCOMPARE(z.get("b").data, (std::vector<double>{3, -1, 2}));
        QCOMPARE(z.get("c").shape, (std::vector<int64_t>{2, 3, 4}));
        QCOMPARE(z.get("c").data[23], 1.0);
        QVERIFY(z.find("d") == nullptr);
        QVERIFY_THROWS_EXCEPTION(pl::InputError, z.get("d"));
    }
    // Random arrays from numpy, both member kinds, compared value by value.
    if (!QFile::exists("/usr/bin/python3"))
        QSKIP("/usr/bin/python3 not available");
    QTemporaryDir dir;
    const QString script = QStringLiteral(
        "import numpy as np, sys\n"
        "r = np.random.default_rng(5)\n"
        "x = r.standard_normal((7, 11, 3)); y = r.integers(-9, 9, 40).astype('<i4')\n"
        "np.savez(sys.argv[1] + '/s.npz', x=x, y=y)\n"
        "np.savez_compressed(sys.argv[1] + '/d.npz', x=x, y=y)\n"
        "print(' '.join(repr(float(v)) for v in np.concatenate([x.ravel(), y])))\n");
    QProcess py;
    py.start("/usr/bin/python3", {"-c", script, dir.path()});
    QVERIFY(py.waitForFinished(60000));
    if (py.exitCode() != 0)
        QSKIP("numpy not available to /usr/bin/python3");
    std::istringstream values(py.readAllStandardOutput().toStdString());
    std::vector<double> expect{std::istream_iterator<double>(values), std::istream_iterator<double>()};
    QCOMPARE(int(expect.size()), 7 * 11 * 3 + 40);
    for (const char* f : {"/s.npz", "/d.npz"}) {
        const pl::NpzArchive z = pl::NpzReader::readFile(dir.path().toStdString() + f);
        std::vector<double> got = z.get("x").data;
        got.insert(got.end(), z.get("y").data.begin(), z.get("y").data.end());
        QCOMPARE(got, expect); // exact: repr round-trips doubles
    }
}

void TstCore::npzBad_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("reason");
    QTest::newRow("not a zip") << "notzip.npz" << "not a valid .npz";
    QTest::newRow("truncated") << "truncated.npz" << "not a valid .npz";
    QTest::newRow("corrupt deflate") << "corrupt.npz" << "corrupt member";
    QTest::newRow("no arrays") << "empty.npz" << "no arrays";
    QTest::newRow("text member") << "notnpy.npz" << "is not a .npy array";
    QTest::newRow("bad member") << "badmember.npz" << "a.npy";
}

void TstCore::npzBad() {
    QFETCH(QString, file);
    QFETCH(QString, reason);
    try {
        pl::NpzReader::readFile(corpusNpz(file.toUtf8().constData()));
        QFAIL("accepted a bad archive");
    } catch (const pl::InputError& e) {
        QVERIFY2(QString(e.what()).contains(file), e.what());
        QVERIFY2(QString(e.what()).contains(reason), e.what());
    }
}

void TstCore::resultJsonRoundTrip() {
    pl::ResultDocument d;
    d.panel = "ssn-nash";
    d.paperlabVersion = "0.1.0";
    d.seed = 18446744073709551615ull; // does not survive a JSON double: must be a string
    d.params = {{"solver", std::string("hybrid")}, {"n", int64_t(5)}, {"g", 0.1}, {"b", true}};
    d.inputs = {{"game.nfg", "abc"}};
    d.metrics["gap"] = 3.1e-13;
    d.metrics["nanmetric"] = std::nan("");
    d.series["s"] = {{0, 1, 2}, {0.5, 0.25, 0.125}, "iteration", "gap"};
    d.matrices["m"] = {2, 2, {1, -1, -1, 1}, {"r1", "r2"}, {"c1", "c2"}};
    d.vectors["x"] = {0.4, 0.6};
    d.labels["state"] = {0, 0, 1};
    pl::Graph g;
    g.directed = true;
    g.nodes = {{0, "a", {{"size", 2}}}, {1, "", {}}};
    g.edges = {{0, 1, 0.3, {{"p", 0.01}}}};
    d.graphs["kp"] = g;
    d.claims = {{"c1", "statement", true, 3, 10, "detail"}};
    d.elapsedMs = 12.5;
    const std::string text = d.toJson();
    QVERIFY(text.find("\"seed\": \"18446744073709551615\"") != std::string::npos);
    auto back = pl::ResultDocument::fromJson(text);
    QCOMPARE(back.toJson(), text);
    QCOMPARE(back.seed, d.seed);
    QVERIFY(std::isnan(back.metrics["nanmetric"]));
    QCOMPARE(back.graphs["kp"].edges[0].attrs["p"], 0.01);
}

void TstCore::resultJsonRejectsGarbage() {
    QVERIFY_THROWS_EXCEPTION(pl::InputError, pl::ResultDocument::fromJson("{not json", "r.json"));
    QVERIFY_THROWS_EXCEPTION(pl::InputError, pl::ResultDocument::fromJson("{\"panel\": 3}", "r.json"));
    QVERIFY_THROWS_EXCEPTION(
        pl::InputError,
        pl::ResultDocument::fromJson(
            R"({"panel":"p","seed":"1","matrices":{"m":{"rows":2,"cols":2,"data":[1]}}})", "r.json"));
}

void TstCore::runContextCancelAndProgress() {
    pl::RunContext ctx(9, 0);
    QCOMPARE(ctx.threads(), 1);
    int calls = 0;
    double last = -1;
    ctx.setProgressCallback([&](double f, const std::string&) {
        ++calls;
        last = f;
    });
    for (int i = 0; i < 1000; ++i)
        ctx.progress(i / 1000.0);
    ctx.progress(1.0);
    QVERIFY(calls >= 1 && calls < 20); // throttled
    QCOMPARE(last, 1.0);
    QVERIFY(!ctx.cancelled());
    bool external = false;
    ctx.setCancelQuery([&] { return external; });
    external = true;
    QVERIFY_THROWS_EXCEPTION(pl::Cancelled, ctx.throwIfCancelled());
}

void TstCore::symmetricEigenDecomposes() {
    // Closed form: the n x n tridiagonal (2, -1) matrix has eigenvalues 2 - 2 cos(k pi / (n + 1)).
    const int n = 17;
    Eigen::MatrixXd T = 2.0 * Eigen::MatrixXd::Identity(n, n);
    for (int i = 0; i + 1 < n; ++i)
        T(i, i + 1) = T(i + 1, i) = -1.0;
    const pl::SymmetricEigen t = pl::symmetricEigen(T);
    QVERIFY(t.ok);
    for (int k = 1; k <= n; ++k)
        QVERIFY(std::abs(t.values(k - 1) - (2.0 - 2.0 * std::cos(k * std::numbers::pi / (n + 1)))) < 1e-13);
    // Random symmetric matrices: ascending values, orthonormal vectors, A V = V diag(values).
    pl::Rng rng(11);
    for (int size : {1, 2, 9, 40}) {
        Eigen::MatrixXd B(size, size);
        for (int j = 0; j < size; ++j)
            for (int i = 0; i < size; ++i)
                B(i, j) = rng.normal();
        const Eigen::MatrixXd A = B + B.transpose();
        const pl::SymmetricEigen e = pl::symmetricEigen(A);
        QVERIFY(e.ok);
        QCOMPARE(int(e.values.size()), size);
        for (int i = 1; i < size; ++i)
            QVERIFY(e.values(i - 1) <= e.values(i));
        const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(size, size);
        QVERIFY((e.vectors.transpose() * e.vectors - I).norm() < 1e-12 * size);
        QVERIFY((A * e.vectors - e.vectors * e.values.asDiagonal()).norm() < 1e-12 * size * A.norm());
    }
}

void TstCore::denseLuSolvesAndInverts() {
    // A permutation-needing system with a known solution: the zero pivot forces a row swap.
    Eigen::MatrixXd A(3, 3);
    A << 0, 2, 1, 1, 1, 1, 2, 0, 3;
    const Eigen::Vector3d x(1, -2, 3);
    QVERIFY((pl::luSolve(A, A * x) - x).norm() < 1e-14);
    QVERIFY((pl::luInverse(A) * A - Eigen::Matrix3d::Identity()).norm() < 1e-14);
    pl::Rng rng(3);
    Eigen::MatrixXd B = Eigen::MatrixXd::Identity(30, 30) * 8;
    for (int j = 0; j < 30; ++j)
        for (int i = 0; i < 30; ++i)
            B(i, j) += rng.normal();
    QVERIFY((B * pl::luInverse(B) - Eigen::MatrixXd::Identity(30, 30)).norm() < 1e-12);
    Eigen::MatrixXd S = Eigen::MatrixXd::Ones(2, 2); // singular: no finite solution
    QVERIFY(!pl::luSolve(S, Eigen::Vector2d(1, 0)).allFinite());
}

QTEST_APPLESS_MAIN(TstCore)
#include "tst_core.moc"
