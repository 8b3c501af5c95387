# cost-vs-latency.gp -- runs as points, p99 latency (log axis) against
# run-rate cost, the Pareto front as a line, overloaded runs ringed and
# off the front.  Preamble from fleetsim: datafile (block 0: p99, cost,
# run number, overloaded; block 1: the front), runs[] ("N  NAME"), pr[]
# (each point's run), the points' number labels, npoints, nover,
# legend_rows, money_div, money_fmt, the x tics and both ranges (set by
# fleetsim, which places the labels); the series styles
# fs_lc(i), fs_pt(i).
set title "Cost against p99 latency (finished requests only)\nrun-rate cost: the horizon's cost scaled to a 730-hour month; p99 on a log scale\ndashed line: Pareto front (no run cheaper and faster); ringed: overloaded (over 1% unfinished), off the front" noenhanced
set xlabel 'p99 latency of finished requests (log scale)'
set ylabel 'run-rate cost (USD per 730-hour month)'
set format y money_fmt
set logscale x
set key outside below vertical maxrows legend_rows Left reverse noautotitle font ',11' spacing 0.9
set grid
plot datafile index 1 using 1:($2 / money_div) with lines lw 2 dt 2 lc rgb '#2ca02c' title 'Pareto front', \
     (nover > 0 ? NaN : 1/0) with points pt 6 ps 2.6 lw 2 lc rgb '#d62728' title 'overloaded (>1% unfinished)', \
     datafile index 0 using 1:($4 > 0 ? $2 / money_div : NaN) with points pt 6 ps 2.6 lw 2 lc rgb '#d62728' notitle, \
     for [i=1:npoints] datafile index 0 every ::(i - 1)::(i - 1) using 1:($2 / money_div) with points pt fs_pt(pr[i]) ps 1.4 lc rgb fs_lc(pr[i]) title runs[pr[i]]
