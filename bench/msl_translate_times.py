#!/usr/bin/env python3
"""CPU time of translating MSL examples (load + flatten + compile, no simulation).

Runs `stiction simulate -L MSL CLASS --stop-time 0 --stats` once per example and reads the
CPU times of the two translation phases that --stats prints ("cpu time load + flatten",
"cpu time compile"); the process's own user + system time (wait4) is reported beside them.
CPU, not wall time: the machine may be shared.

  bench/msl_translate_times.py --stiction ./stiction --msl ~/msl/4.0.0 \\
      --classes ~/msl/cov-s25/results.csv Blocks Electrical.Analog ...

--classes is a CSV with a `class` column (a coverage results.csv) or a file of one class
name per line; the packages (after Modelica.) select the examples whose name starts with
one of them. --out writes one row per example (CSV) for comparing two builds. Not part of
`make check`.
"""
import argparse
import csv
import os
import resource
import statistics
import subprocess
import sys
import tempfile

PHASES = {"cpu time load + flatten [s]": "flatten", "cpu time compile [s]": "compile"}


def read_classes(path):
    with open(path, newline="") as f:
        first = f.readline()
        f.seek(0)
        if "class" in first.split(","):
            return [r["class"] for r in csv.DictReader(f)]
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def select(classes, packages):
    if not packages:
        return classes
    pre = tuple("Modelica." + p.rstrip(".") + "." for p in packages)
    return [c for c in classes if c.startswith(pre)]


def package_of(cls, packages):
    best = ""
    for p in packages:
        if cls.startswith("Modelica." + p + ".") and len(p) > len(best):
            best = p
    return best or cls.split(".")[1]


def measure(stiction, msl, cls, tmp, timeout):
    out = os.path.join(tmp, "r.csv")
    cmd = ["nice", "-n", "10", stiction, "simulate", "-L", msl, cls, "--stop-time", "0",
           "--stats", "-o", out]
    res = {"class": cls, "flatten": None, "compile": None, "process": None, "rc": None}
    try:
        # in the temporary directory: some examples write files into the working directory
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             cwd=tmp)
    except OSError as e:
        sys.exit(f"cannot run {stiction}: {e}")
    try:
        text, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        res["rc"] = "timeout"
        return res
    # the child is reaped by communicate(); its rusage comes from the children total
    res["rc"] = p.returncode
    for line in text.splitlines():
        key, _, val = line.rpartition(": ")
        if key in PHASES:
            res[PHASES[key]] = float(val)
    return res


def child_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stiction", required=True)
    ap.add_argument("--msl", required=True)
    ap.add_argument("--classes", required=True, help="results.csv (class column) or a list")
    ap.add_argument("--out", help="write per-example rows to this CSV")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--slowest", type=int, default=15)
    ap.add_argument("packages", nargs="*", help="e.g. Blocks Electrical.Analog")
    a = ap.parse_args()
    classes = select(read_classes(a.classes), a.packages)
    stiction = os.path.abspath(a.stiction) if os.sep in a.stiction else a.stiction
    msl = os.path.abspath(os.path.expanduser(a.msl))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, cls in enumerate(classes):
            before = child_cpu()
            r = measure(stiction, msl, cls, tmp, a.timeout)
            r["process"] = child_cpu() - before
            r["translate"] = (r["flatten"] + r["compile"]) if r["compile"] is not None else None
            rows.append(r)
            print(f"[{i + 1}/{len(classes)}] {cls} {r['translate']} {r['process']:.3f}",
                  file=sys.stderr)
    if a.out:
        with open(a.out, "w", newline="") as f:
            w = csv.DictWriter(f, ["class", "rc", "flatten", "compile", "translate", "process"])
            w.writeheader()
            w.writerows(rows)
    report(rows, a.packages, a.slowest)


def fmt(x):
    return "-" if x is None else f"{x:.3f}"


def report(rows, packages, slowest):
    def cost(r):  # translation CPU; the whole process when the phases were not printed
        return r["translate"] if r["translate"] is not None else r["process"]

    by = {}
    for r in rows:
        by.setdefault(package_of(r["class"], packages), []).append(r)
    print("| package | examples | median CPU [s] | max CPU [s] | under 1 s |")
    print("|---|---:|---:|---:|---:|")
    for p, rs in sorted(by.items()):
        c = [cost(r) for r in rs]
        print(f"| {p} | {len(rs)} | {statistics.median(c):.3f} | {max(c):.3f} | "
              f"{sum(x < 1 for x in c)} |")
    c = [cost(r) for r in rows]
    if c:
        print(f"| all | {len(rows)} | {statistics.median(c):.3f} | {max(c):.3f} | "
              f"{sum(x < 1 for x in c)} |")
    print()
    print("| slowest | flatten | compile | process | rc |")
    print("|---|---:|---:|---:|---|")
    for r in sorted(rows, key=cost, reverse=True)[:slowest]:
        print(f"| {r['class']} | {fmt(r['flatten'])} | {fmt(r['compile'])} | "
              f"{fmt(r['process'])} | {r['rc']} |")


if __name__ == "__main__":
    main()
