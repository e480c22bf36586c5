#!/usr/bin/env python3
"""Semantic mutation fuzzing of the whole pipeline (flatten + compile + simulate).

Takes seed models (tests/data/compile/*.mo, the library's Examples, and library component
classes used by an example), applies mutations that keep the text parseable but break the
model's meaning (a deleted or duplicated equation, a swapped variable, a zero/negative/huge
parameter, a removed connect, an unknown type, an always-true when, der() of a parameter, a
division by zero, a failing assert, terminate(), an unsolvable loop, sqrt of a negative
number, an event-iteration cycle, ...), runs `stiction flatten` and `stiction simulate` on
each mutant under a time limit and sorts the outcomes:

  crash     killed by a signal or a sanitizer report (ASan/UBSan/LSan) in the output
  hang      the time limit was reached
  nan       exit 0 but NaN/Inf in the result file
  noloc     exit 1 with an error line that names no file:line:col
  lost      exit 1 after a failure at t > start, but no result row on disk
  ok / error  exit 0 / a located error with exit 1 (the expected outcomes)

Usage: tests/fuzz_models.py --bin BUILD/stiction [--count N] [--seed S] [--timeout T]
       [--jobs J] [--out DIR]
Interesting mutants are kept under DIR/<class>/<n>.mo with DIR/<class>/<n>.txt (the
command, exit status and output). Not run by `make check` (it takes minutes); the distinct
cases it found are regression tests in tests/test_robust.c.
"""
import argparse
import concurrent.futures as cf
import os
import random
import re
import resource
import signal
import shutil
import subprocess
import sys
import tempfile

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(SRC, "models")

# Examples (file, class) and for each the library component files its mutants may touch.
EXAMPLES = [
    "Modelica/Mechanics/Rotational/Examples/Friction.mo",
    "Modelica/Mechanics/Rotational/Examples/CoupledClutches.mo",
    "Modelica/Mechanics/Rotational/Examples/OneWayClutch.mo",
    "Modelica/Mechanics/Rotational/Examples/OneWayClutchDisengaged.mo",
    "Modelica/Mechanics/Rotational/Examples/Backlash.mo",
    "Modelica/Mechanics/Rotational/Examples/LossyGearDemo1.mo",
    "Modelica/Mechanics/Rotational/Examples/SimpleGearShift.mo",
    "Modelica/Mechanics/Translational/Examples/Friction.mo",
    "Modelica/Mechanics/Translational/Examples/PreLoad.mo",
    "Modelica/Mechanics/Translational/Examples/Brake.mo",
    "Modelica/Mechanics/Translational/Examples/HeatLosses.mo",
    "Stiction/Examples/LeineBelt.mo",
    "Stiction/Examples/LuGreStickSlip.mo",
]
# Library classes mutated in place (in a copy of models/) and run through the example.
LIBRARY = [
    ("Modelica/Mechanics/Rotational/Interfaces/PartialFriction.mo",
     "Modelica.Mechanics.Rotational.Examples.Friction"),
    ("Modelica/Mechanics/Rotational/Components/Clutch.mo",
     "Modelica.Mechanics.Rotational.Examples.CoupledClutches"),
    ("Modelica/Mechanics/Rotational/Components/Inertia.mo",
     "Modelica.Mechanics.Rotational.Examples.CoupledClutches"),
    ("Modelica/Mechanics/Rotational/Components/Brake.mo",
     "Modelica.Mechanics.Rotational.Examples.Friction"),
    ("Modelica/Mechanics/Rotational/Components/OneWayClutch.mo",
     "Modelica.Mechanics.Rotational.Examples.OneWayClutch"),
    ("Modelica/Mechanics/Rotational/Components/LossyGear.mo",
     "Modelica.Mechanics.Rotational.Examples.LossyGearDemo1"),
    ("Modelica/Mechanics/Rotational/Components/ElastoBacklash.mo",
     "Modelica.Mechanics.Rotational.Examples.Backlash"),
    ("Modelica/Mechanics/Translational/Components/MassWithStopAndFriction.mo",
     "Modelica.Mechanics.Translational.Examples.Friction"),
    ("Modelica/Mechanics/Translational/Interfaces/PartialFriction.mo",
     "Modelica.Mechanics.Translational.Examples.Brake"),
    ("Modelica/Blocks/Sources/Sine.mo",
     "Modelica.Mechanics.Rotational.Examples.Friction"),
    ("Modelica/Blocks/Sources/Step.mo",
     "Modelica.Mechanics.Rotational.Examples.Friction"),
]

IDENT = r"[A-Za-z_][A-Za-z_0-9]*"
KEYWORDS = set("""algorithm and annotation block break class connect connector constant
constrainedby der discrete each else elseif elsewhen encapsulated end enumeration equation
expandable extends external false final flow for function if import impure in initial inner
input loop model not operator or outer output package parameter partial protected public pure
record redeclare replaceable return stream then true type when while within time pre edge
change reinit sample assert terminate noEvent smooth abs sign sqrt sin cos tan exp log min max
Real Integer Boolean String StateSelect""".split())


def split_sections(lines):
    """Indices of equation lines (inside `equation` sections of the outermost class) and of
    declaration lines (before the first section keyword)."""
    eqs, decls, section = [], [], "decl"
    for i, ln in enumerate(lines):
        s = ln.strip()
        if re.match(r"^(initial\s+)?equation\b", s):
            section = "eq"
            continue
        if re.match(r"^(initial\s+)?algorithm\b|^protected\b|^public\b", s):
            section = "alg" if "algorithm" in s else section
            continue
        if s.startswith("annotation") or re.match(r"^end\s+" + IDENT + r"\s*;", s):
            section = "end"
            continue
        if section == "eq" and s.endswith(";") and not s.startswith("//"):
            eqs.append(i)
        elif section == "decl" and s.endswith(";") and not s.startswith(("within", "extends",
                                                                         "import", "//")):
            decls.append(i)
    return eqs, decls


def declared_names(text):
    names = set()
    for m in re.finditer(r"^\s*(?:(?:parameter|constant|discrete|input|output|flow|final|"
                         r"inner|outer)\s+)*([A-Z][\w.]*)\s+(" + IDENT + r")\s*[\(=;\"]",
                         text, re.M):
        if m.group(2) not in KEYWORDS:
            names.add(m.group(2))
    return sorted(names)


def parameters(text):
    return sorted(set(m.group(1) for m in re.finditer(
        r"parameter\s+[\w.]+\s+(" + IDENT + r")", text)))


def states_like(text):
    return sorted(set(re.findall(r"der\((" + IDENT + r"(?:\." + IDENT + r")*)\)", text)))


def insert_decl_eq(text, decls, eqs, rng):
    """Adds declarations before and equations after the first `equation` keyword of the
    outermost class (an `equation` section is created before `annotation`/`end` if none)."""
    lines = text.split("\n")
    idx = next((i for i, ln in enumerate(lines) if re.match(r"^\s*equation\b", ln)), None)
    if idx is None:
        end = next((i for i in range(len(lines) - 1, -1, -1)
                    if re.match(r"^\s*(annotation|end\s+" + IDENT + r"\s*;)", lines[i])), None)
        if end is None:
            return None
        lines[end:end] = ["equation"]
        idx = end
    lines[idx + 1:idx + 1] = ["  " + e for e in eqs]
    lines[idx:idx] = ["  " + d for d in decls]
    return "\n".join(lines)


def m_delete_eq(text, rng):
    lines = text.split("\n")
    eqs, _ = split_sections(lines)
    if not eqs:
        return None
    i = rng.choice(eqs)
    return "\n".join(lines[:i] + lines[i + 1:]), "delete equation line %d" % (i + 1)


def m_duplicate_eq(text, rng):
    lines = text.split("\n")
    eqs, _ = split_sections(lines)
    simple = [i for i in eqs if not re.search(r"\b(when|if|for|end|else)\b", lines[i])]
    if not simple:
        return None
    i = rng.choice(simple)
    return "\n".join(lines[:i + 1] + [lines[i]] + lines[i + 1:]), "duplicate line %d" % (i + 1)


def m_delete_decl(text, rng):
    lines = text.split("\n")
    _, decls = split_sections(lines)
    if not decls:
        return None
    i = rng.choice(decls)
    return "\n".join(lines[:i] + lines[i + 1:]), "delete declaration line %d" % (i + 1)


def m_swap_name(text, rng):
    names = declared_names(text)
    if len(names) < 2:
        return None
    a, b = rng.sample(names, 2)
    hits = [m for m in re.finditer(r"(?<![\w.])" + a + r"(?!\w)", text)]
    if not hits:
        return None
    m = rng.choice(hits)
    return text[:m.start()] + b + text[m.end():], "swap %s -> %s at %d" % (a, b, m.start())


def m_param_value(text, rng):
    # name = number in a declaration or a modifier
    hits = list(re.finditer(r"(" + IDENT + r")\s*=\s*(-?[0-9][0-9.eE+-]*)", text))
    if not hits:
        return None
    m = rng.choice(hits)
    v = rng.choice(["0", "-1", "-1e300", "1e300", "1e-300", "1e308*10", "0.0/0.0", "-0",
                    "1e6", "-1e6"])
    return text[:m.start(2)] + v + text[m.end(2):], "%s = %s" % (m.group(1), v)


def m_number(text, rng):
    hits = list(re.finditer(r"(?<![\w.])([0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?)(?![\w.])", text))
    hits = [h for h in hits if not text[:h.start()].rstrip().endswith(("StopTime=",))]
    if not hits:
        return None
    m = rng.choice(hits)
    v = rng.choice(["0", "1e300", "1e-300", "(-" + m.group(1) + ")", "2147483648"])
    return text[:m.start()] + v + text[m.end():], "number %s -> %s" % (m.group(1), v)


def m_remove_connect(text, rng):
    hits = list(re.finditer(r"^\s*connect\(.*?\);[^\n]*\n", text, re.M | re.S))
    if not hits:
        return None
    m = rng.choice(hits)
    return text[:m.start()] + text[m.end():], "remove connect"


def m_connect_wrong(text, rng):
    hits = list(re.finditer(r"connect\(([\w.\[\]]+),\s*([\w.\[\]]+)\)", text))
    if len(hits) < 2:
        return None
    a, b = rng.sample(hits, 2)
    new = "connect(%s, %s)" % (a.group(1), b.group(rng.choice([1, 2])))
    return text[:a.start()] + new + text[a.end():], "connect %s" % new


def m_unknown_type(text, rng):
    hits = list(re.finditer(r"^\s*(?:(?:parameter|constant|discrete|input|output|flow)\s+)*"
                            r"([A-Z][\w.]*)\s+" + IDENT, text, re.M))
    hits = [h for h in hits if h.group(1) not in ("Modelica", "Real") or rng.random() < 0.3]
    if not hits:
        return None
    m = rng.choice(hits)
    new = rng.choice([m.group(1) + "X", "Unknown.Type", "Integer", "Boolean", "String"])
    return text[:m.start(1)] + new + text[m.end(1):], "type %s -> %s" % (m.group(1), new)


def m_fixed(text, rng):
    hits = list(re.finditer(r"fixed\s*=\s*true", text))
    if not hits:
        return None
    m = rng.choice(hits)
    new = rng.choice(["fixed=false", "fixed=true, fixed=false", "fixed=1"])
    return text[:m.start()] + new + text[m.end():], "fixed -> %s" % new


def m_when_true(text, rng):
    hits = list(re.finditer(r"\b(when|elsewhen)\s+(.*?)\s+then\b", text, re.S))
    if not hits:
        return None
    m = rng.choice(hits)
    new = rng.choice(["true", "time >= 0", "not pre(" + "initial()" + ")", "false",
                      "initial() or true", "{true, true}", "1 > 0"])
    return text[:m.start(2)] + new + text[m.end(2):], "when %s" % new


def m_der_param(text, rng):
    ps = parameters(text)
    if not ps:
        return None
    p = rng.choice(ps)
    r = insert_decl_eq(text, ["Real fz_d;"], ["fz_d = der(%s);" % p], rng)
    return (r, "der(%s)" % p) if r else None


def m_div_zero(text, rng):
    lines = text.split("\n")
    eqs, _ = split_sections(lines)
    simple = [i for i in eqs if re.match(r"^\s*[^=]+=[^=]+;\s*$", lines[i])
              and "connect" not in lines[i]]
    if simple and rng.random() < 0.6:
        i = rng.choice(simple)
        div = rng.choice(["0", "(time - time)", "(time - 0.5)", "0.0"])
        lines[i] = re.sub(r";\s*$", " / %s;" % div, lines[i].replace("=", "= (", 1)
                          ).replace(" / " + div, ") / " + div)
        return "\n".join(lines), "divide line %d by %s" % (i + 1, div)
    r = insert_decl_eq(text, ["Real fz_q;"], ["fz_q = 1 / (time - 0.25);"], rng)
    return (r, "1/(time-0.25)") if r else None


def m_assert(text, rng):
    cond = rng.choice(["time < 0.5", "false", "time < 0", "1 < 0"])
    level = rng.choice(["", ", AssertionLevel.warning", ", AssertionLevel.error"])
    r = insert_decl_eq(text, [], ['assert(%s, "fuzz assert"%s);' % (cond, level)], rng)
    return (r, "assert(%s%s)" % (cond, level)) if r else None


def m_terminate(text, rng):
    t = rng.choice(["0.3", "0", "-1", "1e-12"])
    r = insert_decl_eq(text, [], ['when time > %s then terminate("fuzz stop"); end when;' % t],
                       rng)
    return (r, "terminate at %s" % t) if r else None


def m_loop(text, rng):
    v = rng.choice([(["Real fz_x;"], ["fz_x = fz_x + 1;"]),
                    (["Real fz_x, fz_y;"], ["fz_x = fz_y + 1;", "fz_y = fz_x;"]),
                    (["Real fz_x;"], ["fz_x*fz_x = -1 - time;"]),
                    (["Real fz_x;"], ["fz_x = fz_x;"]),
                    (["Real fz_x;"], ["0 = exp(fz_x);"]),
                    (["Real fz_x(start = 1);"], ["fz_x = cos(fz_x) + 2;"])])
    r = insert_decl_eq(text, v[0], v[1], rng)
    return (r, "loop %s" % v[1]) if r else None


def m_sqrt_neg(text, rng):
    st = states_like(text)
    arg = rng.choice(["-1", "-1 - time", "0.5 - time"] + ["-abs(%s) - 1" % s for s in st[:3]])
    fn = rng.choice(["sqrt", "log", "asin", "acos"])
    r = insert_decl_eq(text, ["Real fz_s;"], ["fz_s = %s(%s);" % (fn, arg)], rng)
    return (r, "%s(%s)" % (fn, arg)) if r else None


def m_event_cycle(text, rng):
    v = rng.choice([
        (["Boolean fz_b(start = false);"], ["fz_b = time > 0.5 and not pre(fz_b);"]),
        (["Boolean fz_b;"], ["fz_b = not fz_b;"]),
        (["Integer fz_i(start = 0);"], ["when time > 0.2 or pre(fz_i) > 0 then",
                                        "  fz_i = pre(fz_i) + 1;", "end when;"]),
        (["Real fz_r(start = 0, fixed = true);"], ["der(fz_r) = 1;",
                                                   "when fz_r > 0.1 then reinit(fz_r, 0.2);"
                                                   " end when;"]),
        (["Real fz_r(start = 0, fixed = true);"], ["der(fz_r) = 1;",
                                                   "when fz_r > 0.1 then reinit(fz_r, 0);"
                                                   " end when;"]),
        (["Integer fz_i(start = 0, fixed = true);"], ["when sample(0, 0) then",
                                                      "  fz_i = pre(fz_i) + 1;", "end when;"]),
        (["Integer fz_i(start = 0, fixed = true);"], ["when sample(0, -1) then",
                                                      "  fz_i = pre(fz_i) + 1;", "end when;"]),
        (["Integer fz_i(start = 0, fixed = true);"], ["when sample(0, 1e-300) then",
                                                      "  fz_i = pre(fz_i) + 1;", "end when;"]),
    ])
    r = insert_decl_eq(text, v[0], v[1], rng)
    return (r, "cycle %s" % " ".join(v[1])) if r else None


def m_operator(text, rng):
    hits = list(re.finditer(r"(?<=\s)(\+|-|\*|/|<|>|<=|>=|==|and|or)(?=\s)", text))
    if not hits:
        return None
    m = rng.choice(hits)
    new = rng.choice(["+", "-", "*", "/", "<", ">", "^", "and", "or", "=="])
    return text[:m.start()] + new + text[m.end():], "operator %s -> %s" % (m.group(1), new)


def m_experiment(text, rng):
    new = rng.choice(["StopTime=-1", "StopTime=0", "StopTime=1e300", "Interval=0",
                      "Interval=-1", "Tolerance=-1", "Tolerance=0", "StartTime=5",
                      "Interval=1e-300", "StopTime=0.0/0.0"])
    m = re.search(r"experiment\s*\(", text)
    if not m:
        return None
    return text[:m.end()] + new + ", " + text[m.end():], "experiment %s" % new


def m_wrap_der(text, rng):
    hits = list(re.finditer(r"der\((" + IDENT + r"(?:\." + IDENT + r")*)\)", text))
    if not hits:
        return None
    m = rng.choice(hits)
    new = rng.choice(["der(der(%s))", "der(pre(%s))", "pre(der(%s))", "der(2*%s)",
                      "der(%s*%s)", "der(time)", "der(1)"]).replace("%s", m.group(1))
    return text[:m.start()] + new + text[m.end():], "%s -> %s" % (m.group(0), new)


def m_pre_edge(text, rng):
    names = declared_names(text)
    if not names:
        return None
    n = rng.choice(names)
    pat = rng.choice(["pre(%s)", "edge(%s)", "change(%s)", "noEvent(%s)", "sample(0, %s)",
                      "delay(%s, 0.1)", "integer(%s)", "%s[1]", "%s.x"])
    e = pat.replace("%s", n)
    r = insert_decl_eq(text, ["Real fz_e;"], ["fz_e = %s;" % e], rng)
    return (r, "fz_e = %s" % e) if r else None


def m_reinit(text, rng):
    names = declared_names(text) + states_like(text)
    if not names:
        return None
    n = rng.choice(names)
    val = rng.choice(["0", "1e300", "-1", "0.0/0.0"])
    r = insert_decl_eq(text, [], ["when time > 0.1 then reinit(%s, %s); end when;" % (n, val)],
                       rng)
    return (r, "reinit(%s, %s)" % (n, val)) if r else None


def m_if_nobranch(text, rng):
    r = insert_decl_eq(text, ["Real fz_f;"],
                       [rng.choice(["fz_f = if time > 0.5 then 1 else fz_f;",
                                    "if time > 0.5 then fz_f = 1; end if;",
                                    "fz_f = if fz_f > 0 then 1 else -1;",
                                    "fz_f = integer(1e300);",
                                    "fz_f = mod(time, 0);",
                                    "fz_f = div(1, 0);",
                                    "fz_f = 2^1e5;",
                                    "fz_f = (-8)^0.5;"])], rng)
    return (r, "if/odd expression") if r else None


MUTATORS = [m_delete_eq, m_duplicate_eq, m_delete_decl, m_swap_name, m_param_value, m_number,
            m_remove_connect, m_connect_wrong, m_unknown_type, m_fixed, m_when_true,
            m_der_param, m_div_zero, m_assert, m_terminate, m_loop, m_sqrt_neg, m_event_cycle,
            m_operator, m_experiment, m_wrap_der, m_pre_edge, m_reinit, m_if_nobranch]


def mutate(text, rng, depth):
    desc = []
    for _ in range(depth):
        for _try in range(20):
            mut = rng.choice(MUTATORS)
            r = mut(text, rng)
            if r and r[0]:
                text = r[0]
                desc.append("%s: %s" % (mut.__name__, r[1]))
                break
    return text, desc


LOC = re.compile(r"^[^\s:][^:\n]*\.mo:\d+:\d+: (error|warning|note)", re.M)
SAN = re.compile(r"AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer")


def has_nan(path):
    try:
        with open(path, "r", errors="replace") as f:
            f.readline()
            for ln in f:
                if re.search(r"(?i)\bnan\b|\binf\b", ln):
                    return True
    except OSError:
        pass
    return False


def rows(path):
    try:
        with open(path, "r", errors="replace") as f:
            return max(0, sum(1 for _ in f) - 1)
    except OSError:
        return -1


def classify(cmd, rc, out, csv):
    if rc == 125:
        return "driver"
    if rc < 0 or rc >= 128 or SAN.search(out):
        return "crash"
    if rc == 124:
        return "hang"
    if rc == 0:
        return "nan" if csv and has_nan(csv) else "ok"
    errs = [ln for ln in out.splitlines() if "error:" in ln]
    if errs and not any(LOC.match(ln) for ln in errs) and "usage" not in out.lower():
        return "noloc"
    m = re.search(r"at t(?:ime)?\s*=\s*([-0-9.eE+]+)", out)
    if csv and m and float(m.group(1)) > 0 and rows(csv) <= 0:
        return "lost"
    return "error"


def run(argv, timeout, env):
    """Runs argv with a CPU-time limit (a loaded machine must not turn slow runs into
    "hangs") and a generous wall-clock limit; 124 means either limit was reached."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (timeout, timeout + 1))
    try:
        p = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout * 10, preexec_fn=limit)
        rc = p.returncode
        if rc in (-signal.SIGXCPU, -signal.SIGKILL):
            rc = 124
        return rc, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        return 124, (e.output or b"").decode("utf-8", "replace")
    except OSError as e:
        return 125, "fuzz driver: cannot run %s: %s" % (argv[0], e)


def one(job):
    (n, seed_kind, seed, cls, text, desc, args) = job
    work = tempfile.mkdtemp(prefix="fz%d_" % n, dir=args.tmp)
    try:
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0"
        lib_args = []
        if seed_kind == "lib":
            lib = os.path.join(work, "lib")
            shutil.copytree(MODELS, lib)
            with open(os.path.join(lib, seed), "w") as f:
                f.write(text)
            target = [cls]
            lib_args = ["-L", lib]
            ex = os.path.join(lib, *cls.split(".")) + ".mo"
            flat_target = [ex, cls]
        else:
            path = os.path.join(work, os.path.basename(seed))
            with open(path, "w") as f:
                f.write(text)
            target = [path] + ([cls] if cls else [])
            flat_target = target
        results = []
        if random.Random(n).random() < args.flatten:
            rc, out = run([args.bin, "flatten"] + lib_args + flat_target, args.timeout, env)
            results.append(("flatten", rc, out, classify("flatten", rc, out, None)))
        csv = os.path.join(work, "r.csv")
        stop = []
        if args.stop_time and random.Random(n).random() < 0.8:
            stop = ["--stop-time", str(args.stop_time)]
        rc, out = run([args.bin, "simulate"] + lib_args + target + ["-o", csv] + stop,
                      args.timeout, env)
        results.append(("simulate", rc, out, classify("simulate", rc, out, csv), rows(csv)))
        return n, seed, cls, desc, text, results
    finally:
        shutil.rmtree(work, ignore_errors=True)


def seeds():
    out = []
    cdir = os.path.join(SRC, "tests", "data", "compile")
    for f in sorted(os.listdir(cdir)):
        if f.endswith(".mo") and "External" not in f:
            with open(os.path.join(cdir, f)) as fh:
                out.append(("file", os.path.join(cdir, f), None, fh.read()))
    for rel in EXAMPLES:
        p = os.path.join(MODELS, rel)
        with open(p) as fh:
            txt = fh.read()
        within = re.search(r"within\s+([\w.]+)\s*;", txt)
        cls = (within.group(1) + "." if within else "") + os.path.basename(rel)[:-3]
        out.append(("file", p, cls, txt))
    for rel, cls in LIBRARY:
        with open(os.path.join(MODELS, rel)) as fh:
            out.append(("lib", rel, cls, fh.read()))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--out", default="fuzz-out")
    ap.add_argument("--tmp", default=None)
    ap.add_argument("--flatten", type=float, default=1.0,
                    help="fraction of mutants also run through `stiction flatten`")
    ap.add_argument("--stop-time", type=float, default=None,
                    help="cap the stop time of 80%% of the simulations (speed)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    pool = seeds()
    jobs = []
    for n in range(args.count):
        kind, seed, cls, text = rng.choice(pool)
        mtext, desc = mutate(text, rng, rng.randint(1, args.depth))
        jobs.append((n, kind, seed, cls, mtext, desc, args))
    counts = {}
    os.makedirs(args.out, exist_ok=True)
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        for n, seed, cls, desc, text, results in ex.map(one, jobs):
            for r in results:
                counts[(r[0], r[3])] = counts.get((r[0], r[3]), 0) + 1
            bad = [r for r in results if r[3] not in ("ok", "error")]
            if not bad:
                continue
            tag = bad[0][3]
            d = os.path.join(args.out, tag)
            os.makedirs(d, exist_ok=True)
            base = os.path.join(d, "%05d" % n)
            with open(base + ".mo", "w") as f:
                f.write(text)
            with open(base + ".txt", "w") as f:
                f.write("seed: %s %s\nmutations: %s\n" % (seed, cls or "", "; ".join(desc)))
                for r in results:
                    f.write("--- %s: exit %d, %s%s\n%s\n" % (r[0], r[1], r[3],
                            (", rows %d" % r[4]) if len(r) > 4 else "", r[2][-6000:]))
            print("%05d %s %s: %s" % (n, tag, os.path.basename(seed), "; ".join(desc)),
                  flush=True)
    print("mutants: %d" % args.count)
    for k in sorted(counts):
        print("  %-8s %-6s %d" % (k[0], k[1], counts[k]))


if __name__ == "__main__":
    sys.exit(main())
