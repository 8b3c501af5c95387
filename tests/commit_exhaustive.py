#!/usr/bin/env python3
"""commit_exhaustive.py -- the portfolio optimum by exhaustive search,
independent of fleetsim's solver, for tests/cli_commit.sh.

Usage: commit_exhaustive.py CATALOG_DIR INSTANCE RUNS BOUND QUANTILE < JSON

RUNS is "day:night,day:night,...": per run, the instances the `day` pool
runs 08:00-20:00 and the `night` pool 20:00-08:00 (tests/commit-day-night.ini,
2 days = 48 hours); both pools are INSTANCE, so they share every
reservation.  BOUND/QUANTILE: the risk bound ("-" for none).  JSON is
`fleetsim commit --format json` of those runs.

Rates, read from the catalog CSVs (not through fleetsim): on demand from
instances.csv; each reservation option's upfront and hourly from
commitments.csv, amortized over 730 h a month of the term; a savings plan's
rate per instance-hour from instances.csv's published plan discount, else
(as `roi` says it does) the term's no-upfront reserved discount.

The search: every vector of counts over the six options whose sum is at
most the peak demand (more is never used), and for each, each plan at
every level where the optimum can lie: the kinks of the cost and of the
unused commitment, and where a run's unused share crosses the bound (the
cost is linear between those points, and the feasible levels are
intervals with such ends).  One plan at a time (a portfolio of both is
reported as a failure of this search, not silently compared).
Prints the optimum and checks the JSON's portfolio costs it, to the cent;
with a bound, checks the portfolio's unused commitment at the quantile
(linear interpolation between order statistics) is within it.  Exit 1
with a message on a failed check.
"""
import csv
import itertools
import json
import math
import sys

MONTH_H = 730.0


def rates(catalog, instance):
    provider, name = instance.split(":")
    with open(f"{catalog}/instances.csv", newline="") as f:
        row = next(r for r in csv.DictReader(f)
                   if r["provider"] == provider and r["instance"] == name)
    od = float(row["on_demand_usd_h"])
    options = []
    with open(f"{catalog}/commitments.csv", newline="") as f:
        for r in csv.DictReader(f):
            if (r["provider"], r["instance"]) != (provider, name):
                continue
            if r["status"] not in ("published", "derived"):
                continue
            months = 12 if r["term"] == "1y" else 36
            up, hourly = float(r["upfront_usd"]), float(r["hourly_usd"])
            options.append({"term": r["term"], "upfront": r["option"],
                            "up": up, "hourly": hourly,
                            "a": hourly + up / (MONTH_H * months)})
    plans = {}
    for term in ("1y", "3y"):
        disc = row.get(f"savings_plan_{term}_discount") or ""
        if disc:
            disc = float(disc)
        else:
            none = next(o for o in options
                        if o["term"] == term and o["upfront"] == "none")
            disc = 1 - none["hourly"] / od
        plans[term] = od * (1 - disc)
    return od, options, plans


def demands(runs):
    """Each run's hourly demand as (instances, hours) pairs: 2 days of 12
    day hours and 12 night hours, both pools of one instance type."""
    return [[(day, 24), (night, 24)] for day, night in runs]


def run_cost(d, counts, options, plan_rate, level, od):
    """Cost and unused commitment ($) of one run: reserved first, then the
    plan (level instances' worth), then on demand (the cost does not
    depend on the order: every pool has the same rates); for the unused,
    usage is given to the commitments of highest rate first (what leaves
    least unused)."""
    k = sum(counts)
    fixed = sum(c * o["a"] for c, o in zip(counts, options)) + \
        level * plan_rate
    caps = sorted([(o["a"], c) for c, o in zip(counts, options) if c] +
                  [(plan_rate, level)], reverse=True)
    cost = used = hours = 0.0
    for dh, n in d:
        hours += n
        cost += n * (fixed + max(0.0, dh - k - level) * od)
        left = dh
        for rate, cap in caps:
            take = min(left, cap)
            used += n * take * rate
            left -= take
    committed = hours * fixed
    return cost, committed - used, committed


def quantile(values, q):
    v = sorted(values)
    pos = (len(v) - 1) * q
    lo = math.floor(pos + 1e-12)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def evaluate(ds, counts, options, plan_rate, level, od, bound, q):
    costs, shares = [], []
    for d in ds:
        c, unused, committed = run_cost(d, counts, options, plan_rate, level,
                                        od)
        costs.append(c)
        shares.append(unused / committed if committed > 0 else 0.0)
    feasible = bound is None or quantile(shares, q) <= bound + 1e-9
    return sum(costs) / len(costs), feasible, shares


def levels(ds, counts, options, rate, od, bound, peak):
    """The plan levels where the optimum can lie: the kinks of the cost
    and of the runs' unused commitment (a demand less 0..k reserved), and
    with a bound, where a run's unused share crosses it (linear between
    kinks, so found by interpolation)."""
    k = sum(counts)
    kinks = sorted({0.0, float(peak)} |
                   {float(dh - j) for d in ds for dh, _ in d
                    for j in range(k + 1) if 0 < dh - j < peak})
    out = set(kinks)
    if bound is None:
        return out
    for d in ds:
        def g(level):
            _, unused, committed = run_cost(d, counts, options, rate, level,
                                            od)
            return unused - bound * committed
        for a, b in zip(kinks, kinks[1:]):
            ga, gb = g(a), g(b)
            if (ga < 0) != (gb < 0):
                out.add(a + (b - a) * ga / (ga - gb))
    return out


def search(ds, od, options, plans, bound, q):
    peak = max(dh for d in ds for dh, _ in d)
    best = (math.inf, None)
    for counts in itertools.product(range(peak + 1), repeat=len(options)):
        if sum(counts) > peak:
            continue
        for term, rate in plans.items():
            for level in levels(ds, counts, options, rate, od, bound, peak):
                cost, ok, _ = evaluate(ds, counts, options, rate, level, od,
                                       bound, q)
                if ok and cost < best[0] - 1e-9:
                    best = (cost, (counts, term, level))
    return best


def reported(doc, options, plans):
    """The JSON's portfolio as counts per option and one plan level."""
    counts = [0] * len(options)
    term, level = "3y", 0.0
    for row in doc["portfolio"]:
        if row["kind"] == "reserved":
            i = next(i for i, o in enumerate(options)
                     if (o["term"], o["upfront"]) ==
                     (row["term"], row["upfront"]))
            counts[i] = int(row["count"])
        elif row["kind"] == "savings-plan":
            if level:
                sys.exit("commit_exhaustive: two plans bought: the search "
                         "assumes one")
            term = row["term"]
            level = row["usd_h"] / plans[term]
    return counts, term, level


def main():
    catalog, instance, spec, bound, q = sys.argv[1:6]
    runs = [tuple(int(x) for x in r.split(":")) for r in spec.split(",")]
    bound = None if bound == "-" else float(bound)
    q = float(q)
    od, options, plans = rates(catalog, instance)
    ds = demands(runs)
    doc = json.load(sys.stdin)
    cost, (counts, term, level) = search(ds, od, options, plans, bound, q)
    print(f"optimum {cost:.4f}: counts "
          f"{[(o['term'], o['upfront'], c) for o, c in zip(options, counts) if c]}"
          f" plan {term} {level * plans[term]:.6f} $/h")
    got = doc["cost"]["expected_total"]
    if round(got, 2) != round(cost, 2):
        sys.exit(f"commit_exhaustive: fleetsim commit's expected cost "
                 f"{got:.4f} is not the optimum {cost:.4f}")
    rc, rt, rl = reported(doc, options, plans)
    mine, ok, shares = evaluate(ds, rc, options, plans[rt], rl, od, bound, q)
    if round(mine, 2) != round(cost, 2):
        sys.exit(f"commit_exhaustive: the reported portfolio costs "
                 f"{mine:.4f} here, not the optimum {cost:.4f}")
    if bound is not None:
        at = quantile(shares, q)
        print(f"unused share at p{q * 100:.0f}: {at:.6f} (bound {bound})")
        if at > bound + 1e-9:
            sys.exit(f"commit_exhaustive: unused share {at:.6f} at the "
                     f"quantile is over the bound {bound}")


if __name__ == "__main__":
    main()
