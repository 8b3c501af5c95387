# cost-vs-latency.gp -- runs as points, p99 latency against run-rate
# cost, the Pareto front as a line.  Preamble from fleetsim: datafile
# (block 0: p99, cost, run index; block 1: the front), runs[], px[],
# py[], pr[] (each point's p99, cost and run, for its label), npoints,
# money_div, money_fmt.
set title "Cost against p99 latency\nrun-rate cost (the horizon's cost scaled to a 730-hour month) and p99 over all requests\nline: Pareto front" noenhanced
set xlabel 'p99 latency (seconds)'
set ylabel 'run-rate cost (USD per 730-hour month)'
set format y money_fmt
set key outside below
set grid
do for [i=1:npoints] {
    set label i runs[pr[i]] at px[i], py[i] / money_div left offset 1.5,0.8
}
set offsets graph 0.1, graph 0.1, graph 0.1, graph 0.1
plot datafile index 1 using 1:($2 / money_div) with linespoints lw 2 dt 2 pt 6 ps 2.5 lc rgb '#2ca02c' title 'Pareto front (no run cheaper and faster)', \
     datafile index 0 using 1:($2 / money_div) with points pt 7 ps 1.5 lc rgb '#1f77b4' title 'run'
