// Tests of the protein engine: Kabsch against known rotations and mirror images, QCP against
// Kabsch, RMSD matrix against numpy on the stored 1ni7 models, TM-score/GDT-TS against the TMscore
// program (Debian tm-align) on several pairs, the reader (PDB, mmCIF, .gz, altlocs, insertion
// codes, multi-model, broken files), clustering and ARI, the synthetic study, determinism and
// the claims at fixed seeds, cancellation.
#include "core/Errors.h"
#include "core/Rng.h"
#include "protein/ProteinEngine.h"
#include "protein/ResidueMatching.h"
#include "protein/StateClustering.h"
#include "protein/StructureReader.h"
#include "protein/Superposition.h"
#include "protein/SyntheticProtein.h"
#include "protein/TmScore.h"

#include <Eigen/Geometry>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace pl::protein;

namespace {

const char* kExamples = "/usr/share/doc/tm-align/examples";

QString example(const char* name) {
    return QString::fromLatin1(kExamples) + QLatin1Char('/') + QString::fromLatin1(name);
}

Eigen::Matrix3Xd randomPoints(pl::Rng& rng, int n, double scale = 10.0) {
    Eigen::Matrix3Xd x(3, n);
    for (int i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c)
            x(c, i) = scale * rng.normal();
    return x;
}

Eigen::Matrix3d randomRotation(pl::Rng& rng) {
    Eigen::Quaterniond q(rng.normal(), rng.normal(), rng.normal(), rng.normal());
    q.normalize();
    return q.toRotationMatrix();
}

std::string gunzipFile(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return StructureReader::gunzip(ss.str(), path.toStdString());
}

void writeText(const QString& path, const std::string& text) {
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << text;
}

/// The MODEL k (1-based) block of a multi-model PDB text as a single-model PDB text.
std::string pdbModel(const std::string& text, int k) {
    std::istringstream in(text);
    std::string line, out;
    int model = 0;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line.rfind("MODEL", 0) == 0) {
            ++model;
            inside = model == k;
            continue;
        }
        if (line.rfind("ENDMDL", 0) == 0) {
            if (inside)
                break;
            continue;
        }
        if (inside && (line.rfind("ATOM", 0) == 0 || line.rfind("HETATM", 0) == 0))
            out += line + "\n";
    }
    return out + "END\n";
}

struct TmProgram {
    bool ok = false;
    int common = 0;
    double rmsd = 0, tm = 0, gdt = 0;
};

TmProgram runTmScore(const QString& a, const QString& b) {
    TmProgram r;
    QProcess p;
    p.start(QStringLiteral("/usr/bin/TMscore"), {a, b});
    if (!p.waitForFinished(60000))
        return r;
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    QRegularExpression reCommon(QStringLiteral("Number of residues in common=\\s*(\\d+)"));
    QRegularExpression reRmsd(QStringLiteral("RMSD of  the common residues=\\s*([0-9.]+)"));
    QRegularExpression reTm(QStringLiteral("TM-score\\s*=\\s*([0-9.]+)"));
    QRegularExpression reGdt(QStringLiteral("GDT-TS-score=\\s*([0-9.]+)"));
    auto m1 = reCommon.match(out), m2 = reRmsd.match(out), m3 = reTm.match(out), m4 = reGdt.match(out);
    if (!m1.hasMatch() || !m2.hasMatch() || !m3.hasMatch() || !m4.hasMatch())
        return r;
    // "ok" only when every field parsed as a number (a pattern like "1.2.3" matches but does not parse).
    bool okCommon = false, okRmsd = false, okTm = false, okGdt = false;
    r.common = m1.captured(1).toInt(&okCommon);
    r.rmsd = m2.captured(1).toDouble(&okRmsd);
    r.tm = m3.captured(1).toDouble(&okTm);
    r.gdt = m4.captured(1).toDouble(&okGdt);
    r.ok = okCommon && okRmsd && okTm && okGdt;
    return r;
}

TmResult ourTm(const ProteinStructure& a, const ProteinStructure& b) {
    const auto pairs = matchResidues(a.models[0], b.models[0]);
    Eigen::Matrix3Xd x(3, long(pairs.size())), y(3, long(pairs.size()));
    for (size_t i = 0; i < pairs.size(); ++i) {
        x.col(long(i)) = a.models[0].ca.col(pairs[i].first);
        y.col(long(i)) = b.models[0].ca.col(pairs[i].second);
    }
    return tmScore(x, y, int(b.models[0].keys.size()));
}

pl::ResultDocument runEngine(const pl::InputList& inputs, uint64_t seed,
                             const std::vector<std::pair<std::string, std::string>>& set = {}) {
    ProteinEngine e;
    pl::ParamSet ps(e.params());
    for (const auto& [k, v] : set)
        ps.setText(k, v);
    pl::RunContext ctx(seed);
    return pl::runEngine(e, inputs, ps, ctx);
}

} // namespace

class TestProtein : public QObject {
    Q_OBJECT
private slots:
    void kabschRecoversKnownRotation() {
        pl::Rng rng(11);
        for (int trial = 0; trial < 20; ++trial) {
            const Eigen::Matrix3Xd x = randomPoints(rng, 30);
            const Eigen::Matrix3d R = randomRotation(rng);
            const Eigen::Vector3d t(rng.normal(), rng.normal(), rng.normal());
            const Eigen::Matrix3Xd y = (R * x).colwise() + t * 5;
            const Superposition s = kabsch(x, y);
            QVERIFY(s.rmsd < 1e-9);
            QVERIFY((s.rotation - R).norm() < 1e-9);
            QVERIFY((s.translation - t * 5).norm() < 1e-8);
            QVERIFY(std::abs(s.rotation.determinant() - 1) < 1e-12);
        }
    }
    void mirrorImageGivesProperRotation() {
        pl::Rng rng(12);
        const Eigen::Matrix3Xd x = randomPoints(rng, 25);
        Eigen::Matrix3Xd y = x;
        y.row(2) *= -1; // mirror
        const Superposition s = kabsch(x, y);
        QVERIFY(std::abs(s.rotation.determinant() - 1) < 1e-12);
        QVERIFY(s.rmsd > 0.1); // a chiral set cannot be rotated onto its mirror image
        const Eigen::Matrix3Xd c = x.colwise() - x.rowwise().mean();
        const Eigen::Matrix3Xd d = y.colwise() - y.rowwise().mean();
        QVERIFY(std::abs(qcpRmsd(c * d.transpose(), c.squaredNorm(), d.squaredNorm(), c.cols()) - s.rmsd) <
                1e-8);
    }
    void kabschBeatsRandomRotations() {
        // Brute force over random rotations (optimal translation = centroids) never beats Kabsch.
        pl::Rng rng(13);
        const Eigen::Matrix3Xd x = randomPoints(rng, 12);
        Eigen::Matrix3Xd y = randomPoints(rng, 12);
        const Superposition s = kabsch(x, y);
        const Eigen::Matrix3Xd c = x.colwise() - x.rowwise().mean();
        const Eigen::Matrix3Xd d = y.colwise() - y.rowwise().mean();
        double best = 1e300;
        for (int i = 0; i < 20000; ++i)
            best = std::min(best, std::sqrt((randomRotation(rng) * c - d).squaredNorm() / 12));
        QVERIFY(s.rmsd <= best + 1e-12);
        QVERIFY(best - s.rmsd < 0.5); // and the search comes close, so both measure the same thing
    }
    void qcpMatchesKabschAndMatrix() {
        pl::Rng rng(14);
        std::vector<Eigen::Matrix3Xd> models;
        const Eigen::Matrix3Xd base = randomPoints(rng, 40);
        for (int m = 0; m < 9; ++m)
            models.push_back((randomRotation(rng) * (base + randomPoints(rng, 40, 1.0 + m))).colwise() +
                             Eigen::Vector3d(m, -m, 2 * m));
        const Eigen::MatrixXd D = rmsdMatrix(models);
        const Eigen::MatrixXd D2 = rmsdMatrix(models, {}, 3);
        for (int i = 0; i < 9; ++i)
            for (int j = 0; j < 9; ++j) {
                const double k = i == j ? 0.0 : kabsch(models[size_t(i)], models[size_t(j)]).rmsd;
                QVERIFY2(std::abs(D(i, j) - k) < 1e-8, qPrintable(QString::number(D(i, j) - k)));
                QCOMPARE(D(i, j), D2(i, j));
            }
        // RMSD(X, RX + t) = 0
        const Eigen::Matrix3Xd moved = (randomRotation(rng) * base).colwise() + Eigen::Vector3d(3, 4, 5);
        QVERIFY(rmsdMatrix({base, moved})(0, 1) < 1e-6);
        QVERIFY(kabsch(base, moved).rmsd < 1e-9);
    }
    void tmScoreOfItselfIsOne() {
        pl::Rng rng(15);
        const Eigen::Matrix3Xd x = randomPoints(rng, 60);
        const TmResult r = tmScore((randomRotation(rng) * x).colwise() + Eigen::Vector3d(1, 2, 3), x, 60);
        QVERIFY(std::abs(r.tmScore - 1) < 1e-12);
        QVERIFY(std::abs(r.gdtTs - 1) < 1e-12);
        QCOMPARE(tmD0(140), 1.24 * std::cbrt(125.0) - 1.8);
        QCOMPARE(tmD0(10), 0.5);
    }
    void domainRotationTmBound() {
        HingeChainParams hp;
        hp.hingeAngleDeg = 60;
        const HingeProtein hpr = buildHingeProtein(hp);
        const int L = int(hpr.stateA.cols());
        int l1 = 0;
        for (int d : hpr.domain)
            l1 += d == 0;
        const TmResult r = tmScore(hpr.stateB, hpr.stateA, L);
        QVERIFY2(r.tmScore >= double(l1) / L - 0.02, qPrintable(QString::number(r.tmScore)));
        QVERIFY(r.rmsdCommon > 3.0);
        // consecutive C-alphas about 3.8 A apart
        for (int i = 1; i < L; ++i) {
            const double d = (hpr.stateA.col(i) - hpr.stateA.col(i - 1)).norm();
            QVERIFY2(d > 2.5 && d < 5.0, qPrintable(QString::number(d)));
        }
    }
    void acceptance1ni7vs5eep() {
        if (!QFile::exists(example("1ni7.pdb.gz")))
            QSKIP("tm-align examples not installed");
        const auto a = StructureReader::readFile(example("1ni7.pdb.gz").toStdString());
        const auto b = StructureReader::readFile(example("5eep.pdb.gz").toStdString());
        QCOMPARE(int(a->models.size()), 20);
        QCOMPARE(int(b->models.size()), 1);
        const TmResult r = ourTm(*a, *b);
        QCOMPARE(r.common, 140);
        QVERIFY2(std::abs(r.rmsdCommon - 1.616) < 0.01, qPrintable(QString::number(r.rmsdCommon)));
        QVERIFY2(std::abs(r.tmScore - 0.8987) < 0.005, qPrintable(QString::number(r.tmScore)));
        // Through the engine (result keys of the issue).
        const auto d = runEngine({a, b}, 1);
        QCOMPARE(d.metrics.at("common_residues"), 140.0);
        QVERIFY(std::abs(d.metrics.at("tm_score") - 0.8987) < 0.005);
        QVERIFY(std::abs(d.metrics.at("rmsd_common") - 1.616) < 0.01);
        QVERIFY(d.metrics.count("gdt_ts"));
        QCOMPARE(d.vectors.at("tm_per_model").size(), size_t(20));
    }
    void tmScoreAgainstTheProgram() {
        if (!QFile::exists(QStringLiteral("/usr/bin/TMscore")) || !QFile::exists(example("1ni7.pdb.gz")))
            QSKIP("TMscore (tm-align) not installed");
        QTemporaryDir dir;
        const std::string text = gunzipFile(example("1ni7.pdb.gz"));
        const std::string ref = gunzipFile(example("5eep.pdb.gz"));
        writeText(dir.filePath(QStringLiteral("5eep.pdb")), ref);
        const int pairs[][2] = {{1, 2}, {1, 5}, {3, 10}, {7, 20}, {12, 4}, {20, 1}};
        for (int k = 1; k <= 20; ++k)
            writeText(dir.filePath(QStringLiteral("m%1.pdb").arg(k)), pdbModel(text, k));
        auto check = [&](const QString& fa, const QString& fb) {
            const TmProgram prog = runTmScore(fa, fb);
            QVERIFY2(prog.ok, qPrintable(fa));
            const auto a = StructureReader::readFile(fa.toStdString());
            const auto b = StructureReader::readFile(fb.toStdString());
            const TmResult r = ourTm(*a, *b);
            const QString msg =
                QStringLiteral("%1 vs %2: ours TM %3 RMSD %4 GDT %5, TMscore TM %6 RMSD %7 GDT %8")
                    .arg(fa, fb)
                    .arg(r.tmScore)
                    .arg(r.rmsdCommon)
                    .arg(r.gdtTs)
                    .arg(prog.tm)
                    .arg(prog.rmsd)
                    .arg(prog.gdt);
            QCOMPARE(r.common, prog.common);
            QVERIFY2(std::abs(r.tmScore - prog.tm) < 0.005, qPrintable(msg));
            QVERIFY2(std::abs(r.rmsdCommon - prog.rmsd) < 0.01, qPrintable(msg));
            QVERIFY2(std::abs(r.gdtTs - prog.gdt) < 0.02, qPrintable(msg));
        };
        for (const auto& p : pairs)
            check(dir.filePath(QStringLiteral("m%1.pdb").arg(p[0])),
                  dir.filePath(QStringLiteral("m%1.pdb").arg(p[1])));
        check(dir.filePath(QStringLiteral("5eep.pdb")), dir.filePath(QStringLiteral("m1.pdb")));
        check(dir.filePath(QStringLiteral("m9.pdb")), dir.filePath(QStringLiteral("5eep.pdb")));
    }
    void ensembleRmsdAgainstNumpy() {
        if (!QFile::exists(example("1ni7.pdb.gz")))
            QSKIP("tm-align examples not installed");
        QProcess probe;
        probe.start(QStringLiteral("/usr/bin/python3"),
                    {QStringLiteral("-c"), QStringLiteral("import numpy")});
        if (!probe.waitForFinished(30000) || probe.exitCode() != 0)
            QSKIP("python3 with numpy not available");
        const auto s = StructureReader::readFile(example("1ni7.pdb.gz").toStdString());
        const EnsembleMatch m = matchEnsemble(s->models);
        QCOMPARE(int(m.keys.size()), 149);
        QTemporaryDir dir;
        {
            std::ofstream out(dir.filePath(QStringLiteral("x.txt")).toStdString());
            out.precision(17);
            for (const auto& c : m.coords) {
                for (long i = 0; i < c.cols(); ++i)
                    out << c(0, i) << ' ' << c(1, i) << ' ' << c(2, i) << ' ';
                out << '\n';
            }
        }
        const QString script =
            QStringLiteral(
                "import numpy as np,sys\n"
                "X=np.loadtxt(sys.argv[1]).reshape(-1,%1,3)\n"
                "X=X-X.mean(axis=1,keepdims=True)\n"
                "n=len(X);D=np.zeros((n,n))\n"
                "for i in range(n):\n"
                "  H=np.einsum('ki,nkj->nij',X[i],X)\n"
                "  U,S,Vt=np.linalg.svd(H)\n"
                "  d=np.sign(np.linalg.det(np.einsum('nij,njk->nik',U,Vt)))\n"
                "  S[:,2]*=d\n"
                "  D[i]=np.sqrt(np.maximum(0,((X[i]**2).sum()+(X**2).sum(axis=(1,2))-2*S.sum(axis=1))/%1))\n"
                "np.savetxt(sys.argv[2],D)\n")
                .arg(m.keys.size());
        QProcess py;
        py.start(QStringLiteral("/usr/bin/python3"),
                 {QStringLiteral("-c"), script, dir.filePath(QStringLiteral("x.txt")),
                  dir.filePath(QStringLiteral("d.txt"))});
        QVERIFY(py.waitForFinished(60000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        std::ifstream in(dir.filePath(QStringLiteral("d.txt")).toStdString());
        const auto doc = runEngine({s}, 3);
        const pl::Matrix& R = doc.matrices.at("rmsd");
        QCOMPARE(R.rows, int64_t(20));
        double maxDiff = 0;
        for (int i = 0; i < 20; ++i)
            for (int j = 0; j < 20; ++j) {
                double v = 0;
                in >> v;
                maxDiff = std::max(maxDiff, std::abs(v - R.at(i, j)));
            }
        QVERIFY2(maxDiff < 1e-6, qPrintable(QString::number(maxDiff)));
        QCOMPARE(doc.labels.at("state").size(), size_t(20));
    }
    void readerAltlocsInsertionCodesModels() {
        const QString dirc = QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/fuzz/corpus/pdb/");
        const auto p = StructureReader::readFile((dirc + QStringLiteral("altloc-icode.pdb")).toStdString());
        QCOMPARE(p->format, std::string("pdb"));
        QCOMPARE(int(p->models.size()), 1);
        const auto& m = p->models[0];
        QCOMPARE(int(m.keys.size()), 3);
        QCOMPARE(m.keys[1].number, 10);
        QCOMPARE(m.keys[1].icode, 'A');
        QVERIFY(std::abs(m.ca(0, 1) - 3.9) < 1e-9); // altloc B has the higher occupancy
        QCOMPARE(m.keys[1].text(), std::string("A:10A"));
        const auto c = StructureReader::readFile((dirc + QStringLiteral("small.cif")).toStdString());
        QCOMPARE(c->format, std::string("mmcif"));
        QCOMPARE(int(c->models.size()), 2);
        QCOMPARE(int(c->models[0].keys.size()), 3);
        QCOMPARE(c->models[0].keys[1].icode, 'A');
        QVERIFY(std::abs(c->models[0].ca(0, 1) - 3.9) < 1e-9);
        // The same residues in both formats match by key.
        QCOMPARE(int(matchResidues(p->models[0], c->models[0]).size()), 3);
        // .gz through zlib: write the PDB compressed.
        QTemporaryDir dir;
        const QString gz = dir.filePath(QStringLiteral("x.cif.gz"));
        {
            QFile f(dirc + QStringLiteral("small.cif"));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray raw = f.readAll();
            gzFile g = gzopen(gz.toLocal8Bit().constData(), "wb");
            QVERIFY(g != nullptr);
            gzwrite(g, raw.constData(), unsigned(raw.size()));
            gzclose(g);
        }
        const auto z = StructureReader::readFile(gz.toStdString());
        QCOMPARE(int(z->models.size()), 2);
        // A truncated .gz is refused with the file named.
        {
            QFile f(gz);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray raw = f.readAll();
            writeText(dir.filePath(QStringLiteral("cut.pdb.gz")),
                      std::string(raw.constData(), size_t(raw.size() / 2)));
        }
        try {
            StructureReader::readFile(dir.filePath(QStringLiteral("cut.pdb.gz")).toStdString());
            QFAIL("truncated gzip accepted");
        } catch (const pl::InputError& e) {
            QVERIFY(QString::fromStdString(e.what()).contains(QStringLiteral("cut.pdb.gz")));
        }
    }
    void badFilesNameFileLineReason_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("reason");
        QTest::newRow("truncated") << "promise-protein-states-truncated.pdb" << 4 << "truncated ATOM";
        QTest::newRow("badcoord") << "promise-protein-states-badcoord.pdb" << 2 << "bad y coordinate";
        QTest::newRow("nan") << "promise-protein-states-nan.pdb" << 2 << "bad x coordinate";
        QTest::newRow("noatoms") << "promise-protein-states-noatoms.pdb" << 0 << "no coordinates";
        QTest::newRow("model") << "promise-protein-states-unterminated-model.pdb" << 5 << "without ENDMDL";
        QTest::newRow("noprotein") << "promise-protein-states-noprotein.pdb" << 0 << "no protein C-alpha";
        QTest::newRow("cif-badcoord") << "promise-protein-states-badcoord.cif" << 21 << "bad coordinate";
        QTest::newRow("cif-quote") << "promise-protein-states-unterminated.cif" << 2 << "unterminated";
        QTest::newRow("cif-loop") << "promise-protein-states-loopcount.cif" << 0 << "Wrong number of values";
        QTest::newRow("cif-tags") << "promise-protein-states-missingtags.cif" << 0 << "missing mmCIF tags";
        QTest::newRow("cif-noatoms") << "promise-protein-states-noatoms.cif" << 0 << "no coordinates";
    }
    void badFilesNameFileLineReason() {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, reason);
        const QString path = QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad/") + file;
        try {
            ProteinEngine().load(path.toStdString());
            QFAIL("bad file accepted");
        } catch (const pl::InputError& e) {
            const QString what = QString::fromStdString(e.what());
            QVERIFY2(what.contains(file), qPrintable(what));
            QVERIFY2(what.contains(reason), qPrintable(what));
            if (line > 0)
                QVERIFY2(e.line() == line, qPrintable(what));
        }
    }
    void clusteringAndAri() {
        // Two well separated groups of points.
        Eigen::MatrixXd D(6, 6);
        const double pos[] = {0, 0.1, 0.2, 5, 5.1, 5.3};
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j)
                D(i, j) = std::abs(pos[i] - pos[j]);
        for (const char* method : {"kmedoids", "average"}) {
            const Clustering c = clusterStates(D, method, 4, 0.25);
            QCOMPARE(c.k, 2);
            QCOMPARE(adjustedRandIndex(c.labels, {1, 1, 1, 0, 0, 0}), 1.0);
        }
        QCOMPARE(adjustedRandIndex({0, 0, 1, 1}, {1, 1, 0, 0}), 1.0);
        QVERIFY(adjustedRandIndex({0, 1, 0, 1}, {0, 0, 1, 1}) < 0);
    }
    void syntheticDeterministicAndKeys() {
        const auto a = runEngine({}, 5, {{"samples", "30"}});
        const auto b = runEngine({}, 5, {{"samples", "30"}});
        auto strip = [](pl::ResultDocument d) {
            d.elapsedMs = 0;
            return d.toJson();
        };
        QCOMPARE(strip(a), strip(b));
        const auto c = runEngine({}, 6, {{"samples", "30"}});
        QVERIFY(strip(a) != strip(c));
        QCOMPARE(a.matrices.at("rmsd").rows, int64_t(30));
        QCOMPARE(a.labels.at("state").size(), size_t(30));
        for (const char* k :
             {"ari_vs_theta", "anm_overlap", "twostate_biased", "success_biased", "silhouette_vs_k"})
            QVERIFY2(a.series.count(k), k);
        QVERIFY(a.matrices.count("display_coords"));
    }
    void claimsAtFixedSeeds() {
        for (uint64_t seed : {1ULL, 2ULL}) {
            const auto d = runEngine({}, seed);
            std::map<std::string, pl::Claim> c;
            for (const auto& cl : d.claims)
                c[cl.id] = cl;
            QVERIFY(c.count("clustering-recovers-states"));
            QVERIFY2(c["clustering-recovers-states"].holds, c["clustering-recovers-states"].detail.c_str());
            QVERIFY2(c["biased-sampler-misses-alternative"].holds,
                     c["biased-sampler-misses-alternative"].detail.c_str());
            QVERIFY2(c["ari-decays-as-theta-vanishes"].holds,
                     c["ari-decays-as-theta-vanishes"].detail.c_str());
            QVERIFY2(c["decoding-temperature-raises-coverage"].holds,
                     c["decoding-temperature-raises-coverage"].detail.c_str());
            QVERIFY(c.count("anm-overlap-hinge"));
            QVERIFY(c["anm-overlap-hinge"].observed > 0 && c["anm-overlap-hinge"].observed <= 1 + 1e-9);
        }
        // w_dom = 0.5: the "biased" sampler is not biased, the occupancies come out alike.
        const auto flat = runEngine({}, 1, {{"w_dom", "0.5"}, {"samples", "200"}});
        QVERIFY(std::abs(flat.metrics.at("occupancy_b_biased") - flat.metrics.at("occupancy_b_unbiased")) <
                0.12);
        // A tiny hinge angle merges the states: the clustering claim fails honestly.
        const auto merged = runEngine({}, 1, {{"hinge_angle", "1"}});
        QVERIFY(merged.metrics.at("ari") < 0.5);
    }
    void cancellation() {
        ProteinEngine e;
        pl::ParamSet ps(e.params());
        pl::RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(pl::Cancelled, e.run({}, ps, ctx));
    }
};

QTEST_GUILESS_MAIN(TestProtein)
#include "tst_protein.moc"
