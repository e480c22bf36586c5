#!/usr/bin/env python3
"""Python baseline for `make bench-bam-fit`: the BAM fit of bam.md §4 the way BAM runs it --
every trial rolls all training logs out as one vectorised NumPy batch (cut to the shortest
log) and the loss is the mean per-log MAE -- driven by Debian's python3-cmaes (the `cmaes`
package that Optuna's CmaEsSampler, BAM's optimizer, wraps) with IPOP restarts, in the unit
box over BAM's parameter bounds, from the box centre with sigma 1/6. The simulator is
bench/bam_python.py's (checked there against BAM's reference MAEs to 1e-12 rad).

Then it times `stiction bam fit` on the same logs, model, split and trial budget, and prints
both wall times and their ratio.

Usage: bam_fit_python.py SHARED_DIR STICTION_BIN [MODEL] [TRIALS] [THREADS]
"""
import json
import os
import subprocess
import sys
import time

import numpy as np
from cmaes import CMA

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bam_python  # noqa: E402  (the NumPy simulator of bam.md §1.3)

# bam.md §3.1 (friction, Dynamixel bounds) and §2.1 (xl330 motor), in stiction's order
MOTOR = [("kt", 0.1, 3.0), ("R", 2.0, 5.0), ("armature", 1e-4, 0.05), ("q_offset", -0.1, 0.1)]
BOX = {"friction_base": (0, 0.2), "friction_viscous": (0, 1.0), "friction_stribeck": (0, 0.2),
       "dtheta_stribeck": (0.1, 3.0), "alpha": (1.0, 10.0), "load_friction_base": (0, 0.5),
       "load_friction_stribeck": (0, 1.0), "load_friction_motor": (0, 0.5),
       "load_friction_external": (0, 0.5), "load_friction_motor_stribeck": (0, 1.0),
       "load_friction_external_stribeck": (0, 1.0), "load_friction_motor_quad": (0, 0.01),
       "load_friction_external_quad": (0, 0.01)}
M6 = ["friction_base", "friction_stribeck", "load_friction_motor", "load_friction_external",
      "load_friction_motor_stribeck", "load_friction_external_stribeck", "dtheta_stribeck",
      "alpha", "friction_viscous", "load_friction_motor_quad", "load_friction_external_quad"]
FRICTION = {"m1": ["friction_base", "friction_viscous"],
            "m2": ["friction_base", "friction_stribeck", "dtheta_stribeck", "alpha",
                   "friction_viscous"],
            "m3": ["friction_base", "load_friction_base", "friction_viscous"],
            "m4": ["friction_base", "friction_stribeck", "load_friction_base",
                   "load_friction_stribeck", "dtheta_stribeck", "alpha", "friction_viscous"],
            "m5": M6[:9], "m6": M6}


def space(model):
    return MOTOR + [(k, *BOX[k]) for k in FRICTION[model]]


def params_of(sp, u):
    return {k: lo + ui * (hi - lo) for (k, lo, hi), ui in zip(sp, u)}


def fit(model, batch, q_log, trials, seed):
    """IPOP CMA-ES over the unit box; returns (best loss, trials run)."""
    sp = space(model)
    n = len(sp)
    rng = np.random.RandomState(seed)
    bounds = np.array([[0.0, 1.0]] * n)
    popsize, mean = None, np.full(n, 0.5)
    best, done = np.inf, 0
    while done < trials:
        opt = CMA(mean=mean, sigma=1 / 6, bounds=bounds, seed=int(rng.randint(2**31)),
                  population_size=popsize)
        while done < trials and not opt.should_stop():
            sols = []
            for _ in range(opt.population_size):
                if done == trials:
                    break
                x = opt.ask()
                sim = bam_python.rollout(model, params_of(sp, x), batch)
                loss = float(np.mean(np.mean(np.abs(sim - q_log), axis=0)))
                sols.append((x, loss))
                best = min(best, loss)
                done += 1
            if len(sols) == opt.population_size:
                opt.tell(sols)
        popsize, mean = 2 * opt.population_size, rng.uniform(size=n)
    return best, done


def main():
    shared, stiction = sys.argv[1], sys.argv[2]
    model = sys.argv[3] if len(sys.argv) > 3 else "m3"
    trials = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    threads = int(sys.argv[5]) if len(sys.argv) > 5 else 2
    logdir = os.path.join(shared, "reference", "bam", "xl330_2026-01-15", "processed")
    names = sorted(f for f in os.listdir(logdir) if f.endswith(".json"))
    logs = [json.load(open(os.path.join(logdir, f))) for f in names]
    train = [lg for lg in logs if lg["kp"] != 800]  # --validation-kp 800
    batch = bam_python.prepare(train)
    q_log = np.array([[e["position"] for e in lg["entries"][:batch["n"]]] for lg in train]).T
    t0 = time.perf_counter()
    best, done = fit(model, batch, q_log, trials, 0)
    t_py = time.perf_counter() - t0
    print(f"python+cmaes {model}: {done} trials in {t_py:.2f} s, best train loss "
          f"{1e3 * best:.3f} mrad ({len(train)} logs, {batch['n']} steps)")
    out = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"bam_fit_bench_{os.getpid()}.json")
    t0 = time.perf_counter()
    run = subprocess.run([stiction, "bam", "fit", "--model", model, "--actuator", "xl330",
                          "--logdir", logdir, "--validation-kp", "800", "--trials", str(trials),
                          "--seed", "0", "-j", str(threads), "-q", "-o", out], check=True,
                         stdout=subprocess.PIPE, text=True)
    t_c = time.perf_counter() - t0
    os.remove(out)
    row = run.stdout.splitlines()[1].split()  # model params trials restarts wall cpu train ...
    t_fit, cpu_fit = float(row[4]), float(row[5])
    print(f"stiction -j {threads} {model}: {trials} trials, fit {t_fit:.3f} s wall "
          f"({cpu_fit:.3f} s CPU), whole process {t_c:.3f} s (reading the 16 logs included); "
          f"best train MAE {row[6]} mrad on whole logs")
    print(f"ratio {t_py / t_fit:.0f}x (fit), {t_py / t_c:.0f}x (whole process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
