#include "simloop/Stepper.h"

#include "core/Errors.h"

#include <arkode/arkode_erkstep.h>
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <cmath>

namespace pl::simloop {

std::string integratorName(Integrator k) {
    switch (k) {
    case Integrator::Rk45:
        return "rk45";
    case Integrator::Bdf:
        return "bdf";
    case Integrator::Verlet:
        return "verlet";
    }
    return "rk45";
}

Integrator integratorFromName(const std::string& name) {
    if (name == "rk45")
        return Integrator::Rk45;
    if (name == "bdf")
        return Integrator::Bdf;
    if (name == "verlet")
        return Integrator::Verlet;
    throw UsageError("unknown integrator '" + name + "' (rk45, bdf, verlet)");
}

namespace {

/// SUNDIALS prints its errors on stderr by default; the engine reports failures itself.
void silentErrors(int, const char*, const char*, char*, void*) {}

/// The right-hand side called by SUNDIALS; the user data is the OdeSystem. A non-finite
/// derivative is a recoverable failure (the method retries with a smaller step).
int sundialsRhs(realtype t, N_Vector y, N_Vector ydot, void* data) {
    const auto* sys = static_cast<const OdeSystem*>(data);
    double* out = N_VGetArrayPointer(ydot);
    sys->rhs(t, N_VGetArrayPointer(y), out);
    for (int i = 0; i < sys->dim; ++i)
        if (!std::isfinite(out[i]))
            return 1;
    return 0;
}

/// What the two SUNDIALS steppers share: the context, the state vector and a copy of the system.
class SundialsStepper : public Stepper {
public:
    SundialsStepper(const OdeSystem& sys, double t0, const Eigen::VectorXd& y0) : m_sys(sys) {
        if (SUNContext_Create(nullptr, &m_ctx) != 0)
            throw EngineError("SUNDIALS: cannot create a context");
        m_vec = N_VNew_Serial(sys.dim, m_ctx);
        std::copy(y0.data(), y0.data() + y0.size(), N_VGetArrayPointer(m_vec));
        m_t = t0;
        m_y = y0;
    }
    ~SundialsStepper() override {
        if (m_vec)
            N_VDestroy(m_vec);
        if (m_ctx)
            SUNContext_Free(&m_ctx);
    }
    SundialsStepper(const SundialsStepper&) = delete;
    SundialsStepper& operator=(const SundialsStepper&) = delete;

protected:
    void copyState() {
        const double* p = N_VGetArrayPointer(m_vec);
        m_y = Eigen::Map<const Eigen::VectorXd>(p, m_sys.dim);
    }
    OdeSystem m_sys;
    SUNContext m_ctx = nullptr;
    N_Vector m_vec = nullptr;
    double m_tStop = 0;
};

/// ARKODE's explicit Runge–Kutta stepper with the Dormand–Prince 7-stage 5(4) pair.
class ArkodeDp45 final : public SundialsStepper {
public:
    ArkodeDp45(const OdeSystem& sys, double t0, const Eigen::VectorXd& y0, const StepOptions& o)
        : SundialsStepper(sys, t0, y0) {
        m_mem = ERKStepCreate(sundialsRhs, t0, m_vec, m_ctx);
        if (!m_mem)
            throw EngineError("SUNDIALS ERKStep: cannot create the stepper");
        m_tStop = o.tStop;
        bool ok = ERKStepSetUserData(m_mem, &m_sys) == 0 && ERKStepSStolerances(m_mem, o.rtol, o.atol) == 0 &&
                  ERKStepSetTableNum(m_mem, ARKODE_DORMAND_PRINCE_7_4_5) == 0 &&
                  ERKStepSetStopTime(m_mem, o.tStop) == 0 && ERKStepSetMaxNumSteps(m_mem, -1) == 0 &&
                  ERKStepSetErrHandlerFn(m_mem, silentErrors, nullptr) == 0;
        if (o.initialStep > 0)
            ok = ok && ERKStepSetInitStep(m_mem, o.initialStep) == 0;
        if (!ok)
            throw EngineError("SUNDIALS ERKStep: set-up refused (tolerances?)");
    }
    ~ArkodeDp45() override { ERKStepFree(&m_mem); }
    bool step() override {
        if (m_t >= m_tStop)
            return false;
        realtype tret = m_t;
        const int flag = ERKStepEvolve(m_mem, m_tStop, m_vec, &tret, ARK_ONE_STEP);
        if (flag < 0)
            return false;
        m_t = tret;
        ERKStepGetLastStep(m_mem, &m_h);
        long nef = 0, ns = 0;
        ERKStepGetNumErrTestFails(m_mem, &nef);
        ERKStepGetNumSteps(m_mem, &ns);
        m_rejected = nef;
        m_steps = ns;
        copyState();
        return m_y.allFinite();
    }
    void interpolate(double t, double* out) const override {
        N_Vector v = N_VMake_Serial(m_sys.dim, out, m_ctx);
        if (ERKStepGetDky(m_mem, t, 0, v) != 0)
            std::copy(m_y.data(), m_y.data() + m_y.size(), out);
        N_VDestroy(v);
    }
    Integrator kind() const override { return Integrator::Rk45; }

private:
    void* m_mem = nullptr;
};

/// CVODE's variable-order BDF (orders 1–5) with Newton iterations on a dense direct solver.
class CvodeBdf final : public SundialsStepper {
public:
    CvodeBdf(const OdeSystem& sys, double t0, const Eigen::VectorXd& y0, const StepOptions& o)
        : SundialsStepper(sys, t0, y0) {
        m_mem = CVodeCreate(CV_BDF, m_ctx);
        if (!m_mem)
            throw EngineError("SUNDIALS CVODE: cannot create the stepper");
        m_tStop = o.tStop;
        m_A = SUNDenseMatrix(sys.dim, sys.dim, m_ctx);
        m_ls = SUNLinSol_Dense(m_vec, m_A, m_ctx);
        bool ok = CVodeInit(m_mem, sundialsRhs, t0, m_vec) == 0 && CVodeSetUserData(m_mem, &m_sys) == 0 &&
                  CVodeSStolerances(m_mem, o.rtol, o.atol) == 0 &&
                  CVodeSetLinearSolver(m_mem, m_ls, m_A) == 0 && CVodeSetStopTime(m_mem, o.tStop) == 0 &&
                  CVodeSetMaxNumSteps(m_mem, -1) == 0 &&
                  CVodeSetErrHandlerFn(m_mem, silentErrors, nullptr) == 0;
        if (o.initialStep > 0)
            ok = ok && CVodeSetInitStep(m_mem, o.initialStep) == 0;
        if (!ok)
            throw EngineError("SUNDIALS CVODE: set-up refused (tolerances?)");
    }
    ~CvodeBdf() override {
        CVodeFree(&m_mem);
        SUNLinSolFree(m_ls);
        SUNMatDestroy(m_A);
    }
    bool step() override {
        if (m_t >= m_tStop)
            return false;
        realtype tret = m_t;
        const int flag = CVode(m_mem, m_tStop, m_vec, &tret, CV_ONE_STEP);
        if (flag < 0)
            return false;
        m_t = tret;
        CVodeGetLastStep(m_mem, &m_h);
        long nef = 0, ns = 0;
        CVodeGetNumErrTestFails(m_mem, &nef);
        CVodeGetNumSteps(m_mem, &ns);
        m_rejected = nef;
        m_steps = ns;
        copyState();
        return m_y.allFinite();
    }
    void interpolate(double t, double* out) const override {
        N_Vector v = N_VMake_Serial(m_sys.dim, out, m_ctx);
        if (CVodeGetDky(m_mem, t, 0, v) != 0)
            std::copy(m_y.data(), m_y.data() + m_y.size(), out);
        N_VDestroy(v);
    }
    Integrator kind() const override { return Integrator::Bdf; }

private:
    void* m_mem = nullptr;
    SUNMatrix m_A = nullptr;
    SUNLinearSolver m_ls = nullptr;
};

/// Velocity Verlet (kick-drift-kick) with a fixed step; symplectic and time-reversible, so the
/// energy of a conservative system oscillates without drift.
class VelocityVerlet final : public Stepper {
public:
    VelocityVerlet(const OdeSystem& sys, double t0, const Eigen::VectorXd& y0, const StepOptions& o)
        : m_sys(sys), m_dt(o.dt), m_tStop(o.tStop) {
        if (!sys.accel || sys.dim % 2 != 0)
            throw UsageError("verlet needs a second-order system with a position-only acceleration "
                             "(task = energy)");
        if (!(o.dt > 0))
            throw UsageError("verlet needs a positive step");
        m_t = t0;
        m_y = y0;
        m_prev = y0;
        m_a.resize(sys.dim / 2);
        sys.accel(m_y.data(), m_a.data());
    }
    bool step() override {
        if (m_t >= m_tStop)
            return false;
        const int m = m_sys.dim / 2;
        const double h = std::min(m_dt, m_tStop - m_t);
        m_prev = m_y;
        m_tPrev = m_t;
        auto q = m_y.head(m), v = m_y.tail(m);
        v += 0.5 * h * m_a;
        q += h * v;
        m_sys.accel(q.data(), m_a.data());
        v += 0.5 * h * m_a;
        m_t = (m_tStop - m_t <= m_dt) ? m_tStop : m_t + h;
        m_h = h;
        ++m_steps;
        return m_y.allFinite();
    }
    void interpolate(double t, double* out) const override {
        const double w = m_h > 0 ? std::clamp((t - m_tPrev) / m_h, 0.0, 1.0) : 1.0;
        Eigen::Map<Eigen::VectorXd>(out, m_sys.dim) = (1 - w) * m_prev + w * m_y;
    }
    Integrator kind() const override { return Integrator::Verlet; }

private:
    OdeSystem m_sys;
    double m_dt, m_tStop, m_tPrev = 0;
    Eigen::VectorXd m_prev, m_a;
};

} // namespace

std::unique_ptr<Stepper> makeStepper(Integrator kind, const OdeSystem& sys, double t0,
                                     const Eigen::VectorXd& y0, const StepOptions& opt) {
    switch (kind) {
    case Integrator::Rk45:
        return std::make_unique<ArkodeDp45>(sys, t0, y0, opt);
    case Integrator::Bdf:
        return std::make_unique<CvodeBdf>(sys, t0, y0, opt);
    case Integrator::Verlet:
        return std::make_unique<VelocityVerlet>(sys, t0, y0, opt);
    }
    throw UsageError("unknown integrator");
}

} // namespace pl::simloop
