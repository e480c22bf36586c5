#!/usr/bin/env python3
"""Python baseline for `make bench-bam`: BAM's reference simulator (doc/bam.md §1.3)
restated in Python + NumPy, the way BAM's own simulator runs (NumPy math on each step, one
log at a time for `bam.mae`, or all logs as one vectorised batch when fitting, doc/bam.md §4).

BAM's code is not in this tree (and is not copied here): this program is written from
doc/bam.md, for the XL330 voltage servo of the shipped logs only. It checks itself against the
reference per-log MAEs (bam_reference_outputs/mae_16logs__params_main_xl330.json, |error| <=
1e-12 rad) before it reports a speed, so the work it times is the work BAM does. BAM wraps the
same arithmetic in actuator/model objects, so its own per-step cost is at least this one's: a
speed ratio against this baseline is a lower bound of the ratio against BAM.

Usage: bam_python.py SHARED_DIR [SECONDS]
Prints `per-log <steps/s>` and `batched <steps/s>` for each model m1..m6 (params_main/xl330).
"""
import json
import os
import sys
import time

import numpy as np

G = 9.80665
XL330_ERROR_GAIN = (4096 / (2 * np.pi)) / (256 * 885)  # duty per firmware-kp unit per rad
XL330_MAX_DUTY = 1.0
MAX_SPEED = 100.0


def stribeck(omega, p):
    return np.exp(-np.abs(omega / p["dtheta_stribeck"]) ** p["alpha"])


def friction_budget(model, p, tau_m, tau_e, omega):
    """tau_fm of doc/bam.md §3 (frictionloss + damping |omega|)."""
    b = p["friction_base"] + p["friction_viscous"] * np.abs(omega)
    if model == "m1":
        return b
    if model == "m3":
        return b + p["load_friction_base"] * np.abs(tau_e - tau_m)
    s = stribeck(omega, p)
    if model == "m2":
        return b + s * p["friction_stribeck"]
    if model == "m4":
        load = np.abs(tau_e - tau_m)
        return (b + p["load_friction_base"] * load
                + s * (p["friction_stribeck"] + p["load_friction_stribeck"] * load))
    b = (b + np.abs(p["load_friction_external"] * tau_e - p["load_friction_motor"] * tau_m)
         + s * (p["friction_stribeck"]
                + np.abs(p["load_friction_external_stribeck"] * tau_e
                         - p["load_friction_motor_stribeck"] * tau_m)))
    if model == "m5":
        return b
    # M6: the quadratic term only for opposite signs (sign(0) = 0 counts), cross-wired (§3)
    opposite = np.sign(tau_e) != np.sign(tau_m)
    ext_small = np.abs(tau_e) < np.abs(tau_m)
    ext_large = np.abs(tau_e) > np.abs(tau_m)
    q = opposite * (ext_small * p["load_friction_external_quad"] * tau_e ** 2
                    + ext_large * p["load_friction_motor_quad"] * tau_m ** 2)
    return b + s * q


def prepare(logs):
    """The per-step inputs and per-log constants of a batch of logs (equal length: the
    shortest), as arrays; done once, outside the timed rollouts."""
    n = min(len(lg["entries"]) for lg in logs)
    col = lambda key: np.array([[float(e[key]) for e in lg["entries"][:n]] for lg in logs]).T
    head = lambda key, default=None: np.array(
        [float(lg.get(key, lg.get(key.replace("_", "-"), default))) for lg in logs])
    return {"n": n, "goal": col("goal_position"), "enable": col("torque_enable"),
            "mass": head("mass"), "arm": head("arm_mass", 0.0), "length": head("length"),
            "kp": head("kp"), "vin": head("vin"), "dt": logs[0]["dt"],
            "q0": np.array([lg["entries"][0]["position"] for lg in logs]),
            "w0": np.array([lg["entries"][0].get("speed", 0.0) for lg in logs])}


def rollout(model, p, b):
    """Closed-loop rollout of doc/bam.md §1.3 over a prepared batch; returns the simulated
    positions, shape (steps, logs)."""
    mass, arm, length, kp, vin, dt = b["mass"], b["arm"], b["length"], b["kp"], b["vin"], b["dt"]
    inertia = mass * length ** 2 + arm * length ** 2 / 3 + p["armature"]
    q, w = b["q0"].copy(), b["w0"].copy()
    out = np.empty((b["n"], len(q)))
    for k in range(b["n"]):
        out[k] = q
        tau_e = -(mass + arm / 2) * G * length * np.sin(q + p.get("q_offset", 0.0))
        duty = np.clip(kp * XL330_ERROR_GAIN * (b["goal"][k] - q), -XL330_MAX_DUTY,
                       XL330_MAX_DUTY)
        tau_m = b["enable"][k] * (p["kt"] / p["R"]) * (vin * duty - p["kt"] * w)
        budget = friction_budget(model, p, tau_m, tau_e, w)
        tau_stop = inertia / dt * w + tau_m + tau_e
        tau_f = np.clip(-tau_stop, -budget, budget)
        a = (tau_m + tau_e + tau_f) / inertia
        w = np.clip(w + a * dt, -MAX_SPEED, MAX_SPEED)
        q = q + w * dt + 0.5 * a * dt ** 2
    return out


def mae(model, p, log, batch):
    q_log = np.array([e["position"] for e in log["entries"]])
    return float(np.mean(np.abs(rollout(model, p, batch)[:, 0] - q_log)))


def main():
    refdir = sys.argv[1] if len(sys.argv) > 1 else "tests/reference"
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    bam = os.path.join(refdir, "bam")
    ref = json.load(open(os.path.join(bam, "bam_reference_outputs",
                                      "mae_16logs__params_main_xl330.json")))
    logdir = os.path.join(bam, "xl330_2026-01-15", "processed")
    logs = [json.load(open(os.path.join(logdir, name))) for name in ref["log_order"]]
    steps = sum(len(lg["entries"]) for lg in logs)
    single = [prepare([lg]) for lg in logs]
    batch = prepare(logs)
    for model in ("m1", "m2", "m3", "m4", "m5", "m6"):
        p = json.load(open(os.path.join(bam, "params_main", "xl330", model + ".json")))
        worst = max(abs(mae(model, p, lg, one) - r)
                    for lg, one, r in zip(logs, single, ref["results"][model]["per_log"]))
        if worst > 1e-12:
            print(f"{model}: MAE differs from the reference by {worst:.3g} rad", file=sys.stderr)
            return 1
        reps, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds or reps == 0:
            for one in single:
                rollout(model, p, one)
            reps += 1
        per_log = reps * steps / (time.perf_counter() - t0)
        reps, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds or reps == 0:
            rollout(model, p, batch)
            reps += 1
        batched = reps * batch["n"] * len(logs) / (time.perf_counter() - t0)
        print(f"{model} per-log {per_log:.4g} batched {batched:.4g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
