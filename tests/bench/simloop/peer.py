#!/usr/bin/env python3
"""Peer of bench_simloop: scipy.integrate.solve_ivp on the same small systems.

CASE REPS: integrates CASE (vdp: Van der Pol mu = 1 to t = 200, RK45; pid: the embodied-act PID
loop on 1/(s+1)^3 with |u| <= 3, Kp, Ki, Kd = 2, 0.5, 1.5, Tf = 0.05, to t = 20, RK45; robertson:
to t = 4e5, BDF), REPS times; prints JSON {ms_per_run, steps, y_final}. rtol 1e-6, atol 1e-9
(robertson atol 1e-10), as the benchmark's own runs.
"""
import json
import sys
import time

from scipy.integrate import solve_ivp


def vdp(t, y):
    return [y[1], (1 - y[0] ** 2) * y[1] - y[0]]


def pid(t, x):
    e = 1 - x[0]
    u = 2 * e + 0.5 * x[3] + 1.5 / 0.05 * (e - x[4])
    u = max(-3.0, min(3.0, u))
    return [x[1], x[2], -(x[0] + 3 * x[1] + 3 * x[2]) + u, e, (e - x[4]) / 0.05]


def rob(t, y):
    return [-0.04 * y[0] + 1e4 * y[1] * y[2], 0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2, 3e7 * y[1] ** 2]


CASES = {
    "vdp": (vdp, (0, 200), [2.0, 0.0], "RK45", 1e-9),
    "pid": (pid, (0, 20), [0.0] * 5, "RK45", 1e-9),
    "robertson": (rob, (0, 4e5), [1.0, 0.0, 0.0], "BDF", 1e-10),
}

case, reps = sys.argv[1], int(sys.argv[2])
f, span, y0, method, atol = CASES[case]
t0 = time.perf_counter()
for _ in range(reps):
    s = solve_ivp(f, span, y0, method=method, rtol=1e-6, atol=atol)
ms = (time.perf_counter() - t0) * 1e3 / reps
print(json.dumps({"ms_per_run": ms, "steps": int(s.t.size - 1), "y_final": [float(v) for v in s.y[:, -1]]}))
