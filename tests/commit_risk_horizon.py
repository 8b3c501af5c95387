#!/usr/bin/env python3
"""commit_risk_horizon.py -- the unused commitment of a portfolio over a
horizon, recomputed independently of fleetsim's solver, for
tests/cli_commit_risk.sh.

Usage: commit_risk_horizon.py CATALOG_DIR INSTANCE MONTHS BOUND QUANTILE
           COMMIT.json FORECAST.json

COMMIT.json is `fleetsim commit RUN... --horizon MONTHSm --format json`
(discount rate 0) on runs of tests/commit-day-night.ini with its default
counts (`day` 3 instances 08:00-20:00, `night` 2 instances 20:00-08:00,
2 days = 48 hours, one instance type, so that every commitment covers
both pools); FORECAST.json is `fleetsim forecast` of the same runs, in
the same order, for the rate each drew (growth_month).  BOUND "-": none.

The horizon's demand, as README's "The long view" defines it: the run's
48 hours as they are, then each later stretch (hours 48-730, then every
month of 730 hours up to MONTHS x 730) the run's hours scaled by the mean
of (1 + g)^(t / 730) over the stretch over its mean over the run's 48
hours, in closed form.  Commitments are held through the horizon, each
term paid in full (a 1-year term three times in 3 years).  In every hour
the demand is given to the commitments of highest value per instance-hour
first (the amortized rate of a reservation, a plan's rate per
instance-hour): what leaves least unused.  Unused = paid - used, a run's
share of it unused / paid; prints each run's share and the share at the
quantile (linear interpolation between order statistics, as GSL), and
exits 1 when that is over BOUND, or when what commit reports
(unused_share_at_risk_quantile, or unused_share_p90 without a bound) is
less than it or more than 0.002 over it (commit measures its solver's own
split of the demand among the commitments, which can only leave more
unused than the best split).
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from commit_exhaustive import MONTH_H, quantile, rates  # noqa: E402

RUN_H = 48.0
LEVELS = [(3.0, 24.0), (2.0, 24.0)]   # instances, hours of the run


def mean_factor(g, a, b):
    """The mean of (1 + g)^(t / 730) over t in [a, b] hours."""
    k = math.log1p(g) / MONTH_H
    if k * (b - a) < 1e-12:
        return math.exp(k * a)
    return (math.exp(k * b) - math.exp(k * a)) / (k * (b - a))


def horizon_demand(g, months):
    """(instances, hours) of the run over the horizon."""
    out = list(LEVELS)
    base = mean_factor(g, 0, RUN_H)
    a, end = RUN_H, MONTH_H * months
    while a < end - 1e-9:
        b = min(end, MONTH_H * (math.floor(a / MONTH_H + 1e-9) + 1))
        f = mean_factor(g, a, b) / base
        out += [(d * f, n / RUN_H * (b - a)) for d, n in LEVELS]
        a = b
    return out


def portfolio(doc, options, plans):
    """Capacities (value per instance-hour, instances) and $ paid over
    the horizon's terms, from commit's JSON."""
    caps, paid_h, paid_once = [], 0.0, []
    for row in doc["portfolio"]:
        if row["kind"] == "reserved":
            o = next(o for o in options if (o["term"], o["upfront"]) ==
                     (row["term"], row["upfront"]))
            caps.append((o["a"], row["count"], o))
        elif row["kind"] == "savings-plan":
            caps.append((plans[row["term"]], row["usd_h"] /
                         plans[row["term"]], {"term": row["term"],
                                              "up": 0.0,
                                              "hourly": row["usd_h"]}))
    return sorted(caps, key=lambda c: -c[0])


def run_share(caps, demand, months):
    paid = used = 0.0
    for _, n, o in caps:
        term = 12 if o["term"] == "1y" else 36
        terms = math.ceil(months / term)
        per_unit = terms * (o["up"] + term * MONTH_H * o["hourly"])
        paid += per_unit * (n if "a" in o else 1)
    for d, hours in demand:
        left = d
        for value, cap, _ in caps:
            take = min(left, cap)
            used += hours * take * value
            left -= take
    return (paid - used) / paid if paid > 0 else 0.0


def main():
    catalog, instance, months, bound, q, cpath, fpath = sys.argv[1:8]
    months, q = int(months), float(q)
    bound = None if bound == "-" else float(bound)
    _, options, plans = rates(catalog, instance)
    with open(cpath) as f:
        doc = json.load(f)
    with open(fpath) as f:
        growth = [r["growth_month"] for r in json.load(f)["runs"]]
    caps = portfolio(doc, options, plans)
    shares = [run_share(caps, horizon_demand(g, months), months)
              for g in growth]
    at = quantile(shares, q)
    print("shares " + " ".join(f"{s:.6f}" for s in shares))
    print(f"unused share at p{q * 100:.0f}: {at:.6f}")
    cost = doc["cost"]
    mine = cost.get("unused_share_at_risk_quantile",
                    cost.get("unused_share_p90"))
    if bound is not None and at > bound + 1e-9:
        sys.exit(f"commit_risk_horizon: unused share {at:.6f} at the "
                 f"quantile is over the bound {bound}")
    # commit measures the unused on the solver's own split of the demand
    # among the commitments, which leaves at least the least unused: it
    # may report more than here, never less, and by little
    if mine is not None and not at - 1e-6 <= mine <= at + 2e-3:
        sys.exit(f"commit_risk_horizon: commit reports {mine:.6f} at the "
                 f"quantile, recomputed {at:.6f} (at most 0.002 less)")


main()
