/* erlang.h -- the M/M/c queue in closed form (Erlang C).
 *
 * With Poisson arrivals at lambda, exponential service at mu per server and
 * c servers (a = lambda / mu < c), an arrival waits with probability
 * C(c, a), and the wait W beyond zero is exponential at c mu - lambda:
 *   P(W > t) = C(c, a) e^{-(c mu - lambda) t}.
 * The sojourn T = W + S adds an independent exponential service S.  The
 * planner (`fleetsim plan`) uses these to bracket the smallest fleet that
 * meets a latency SLO before it simulates; tests/test_queueing.c checks the
 * simulator against them. */
#ifndef FS_ERLANG_H
#define FS_ERLANG_H

/* C(c, a): the probability an arrival waits; 1 when a >= c (unstable). */
double fs_erlang_c(long c, double a);

/* P(W > t), mean wait C / (c mu - lambda), and P(T > t); 1 (or infinity
 * for the mean) when unstable. */
double fs_mmc_wait_tail(long c, double lambda, double mu, double t);
double fs_mmc_wait_mean(long c, double lambda, double mu);
double fs_mmc_sojourn_tail(long c, double lambda, double mu, double t);

/* The q-quantile (0 < q < 1) of the sojourn time and of the wait. */
double fs_mmc_sojourn_quantile(long c, double lambda, double mu, double q);
double fs_mmc_wait_quantile(long c, double lambda, double mu, double q);

#endif
