#pragma once
/// Step-wise ODE integrators for the simulate-perceive-repair loop: each call to step() advances
/// one internal (accepted) step, so a monitor can look at the run while it happens. Three kinds:
/// SUNDIALS ARKODE ERKStep with the Dormand–Prince 5(4) table (`rk45`), SUNDIALS CVODE BDF with a
/// dense direct linear solver and difference-quotient Jacobian (`bdf`), and our fixed-step velocity
/// Verlet (`verlet`, for systems with a position-only acceleration). A Stepper owns its SUNDIALS
/// memory; one object per run and per thread. No Qt.

#include <Eigen/Core>

#include <functional>
#include <memory>
#include <string>

namespace pl::simloop {

/// The integrators of the engine.
enum class Integrator { Rk45, Bdf, Verlet };

/// "rk45" | "bdf" | "verlet".
std::string integratorName(Integrator k);
/// Inverse of integratorName; throws UsageError for an unknown name.
Integrator integratorFromName(const std::string& name);

/// dy/dt = f(t, y). `accel` (optional) is the acceleration a(q) of a second-order system whose state
/// is y = [q; v] with q and v of `dim / 2` entries each; Verlet needs it.
struct OdeSystem {
    int dim = 0;
    std::function<void(double t, const double* y, double* dydt)> rhs;
    std::function<void(const double* q, double* a)> accel;
};

/// Tolerances of the adaptive methods and the fixed step of Verlet, in the system's time unit.
struct StepOptions {
    double rtol = 1e-6;
    double atol = 1e-9;
    double dt = 0.01;       ///< Verlet step
    double tStop = 1.0;     ///< no step goes past this time
    double initialStep = 0; ///< 0: let the method choose
};

/// One integrator run, advanced step by step.
class Stepper {
public:
    virtual ~Stepper() = default;
    /// Advances one accepted step (never past tStop); false when the method fails (step too small,
    /// repeated error-test or convergence failures, non-finite right-hand side).
    virtual bool step() = 0;
    /// The state at a time in [previous step's t, t()] from the method's dense output (Verlet:
    /// linear interpolation), written to \a out (dim entries).
    virtual void interpolate(double t, double* out) const = 0;
    virtual Integrator kind() const = 0;
    /// Time after the last accepted step.
    double t() const { return m_t; }
    /// State after the last accepted step.
    const Eigen::VectorXd& y() const { return m_y; }
    /// Size of the last accepted step.
    double lastStep() const { return m_h; }
    /// Error-test failures (rejected steps) so far.
    long rejected() const { return m_rejected; }
    /// Accepted steps so far.
    long steps() const { return m_steps; }

protected:
    double m_t = 0, m_h = 0;
    Eigen::VectorXd m_y;
    long m_rejected = 0, m_steps = 0;
};

/// A stepper of \a kind for \a sys from (t0, y0). Throws UsageError when Verlet is asked for a
/// system without `accel`, EngineError when SUNDIALS refuses the set-up.
std::unique_ptr<Stepper> makeStepper(Integrator kind, const OdeSystem& sys, double t0,
                                     const Eigen::VectorXd& y0, const StepOptions& opt);

} // namespace pl::simloop
