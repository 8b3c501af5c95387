#!/usr/bin/env python3
"""mm4_simpy.py -- the M/M/c queue of bench/run, modelled in SimPy, for a
speed comparison with fleetsim measured in the same run.

The textbook SimPy model: a Resource with c servers, a generator process
that creates customers at exponential gaps, and one process per customer
that requests a server, holds it for an exponential service time and
releases it.  It records each customer's wait, like fleetsim's wait_mean_s.

usage: mm4_simpy.py SERVERS ARRIVAL_RATE MEAN_SERVICE HORIZON_S SEED
prints: customers=N wait_mean_s=W seconds=T customers_per_s=R
"""
import random
import sys
import time

import simpy


def customer(env, servers, mean_service, rng, stats):
    arrived = env.now
    with servers.request() as req:
        yield req
        stats[0] += env.now - arrived
        yield env.timeout(rng.expovariate(1.0 / mean_service))
    stats[1] += 1


def source(env, servers, rate, mean_service, rng, stats):
    while True:
        yield env.timeout(rng.expovariate(rate))
        env.process(customer(env, servers, mean_service, rng, stats))


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    c, rate, mean_service, horizon, seed = (int(sys.argv[1]),
                                            float(sys.argv[2]),
                                            float(sys.argv[3]),
                                            float(sys.argv[4]),
                                            int(sys.argv[5]))
    t0 = time.perf_counter()
    env = simpy.Environment()
    servers = simpy.Resource(env, capacity=c)
    stats = [0.0, 0]          # total wait of started customers, completions
    rng = random.Random(seed)
    env.process(source(env, servers, rate, mean_service, rng, stats))
    env.run(until=horizon)
    seconds = time.perf_counter() - t0
    n = stats[1]
    print("customers=%d wait_mean_s=%.5f seconds=%.3f customers_per_s=%.0f"
          % (n, stats[0] / max(n, 1), seconds, n / seconds))


if __name__ == "__main__":
    main()
