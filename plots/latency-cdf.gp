# latency-cdf.gp -- latency CDF of each workload, drawn through the
# percentiles the latency table stores (p50, p90, p95, p99, p99.9), SLO
# as a dotted vertical line in the workload's colour.  Preamble from
# fleetsim: datafile (one block per series: latency s, -log10(1-p)),
# series[] ("RUN / WORKLOAD"), slo[] (0: none), nseries, logx; the series
# styles fs_lc(i), fs_dt(i), fs_pt(i) (distinct colour and dash).
set title "Latency CDF per workload (finished requests only)\nthrough the stored percentiles p50, p90, p95, p99, p99.9 (points); latency on a log scale\ndotted vertical lines: each workload's p99 SLO" noenhanced
set xlabel 'latency (log scale)'
set ylabel 'fraction of requests served within'
set ytics ('p50' 0.30103, 'p90' 1, 'p95' 1.30103, 'p99' 2, 'p99.9' 3)
set yrange [0:3.3]
if (logx) set logscale x
set key outside right top vertical Left reverse noautotitle font ',11' samplen 3 spacing 0.9
set grid
do for [i=1:nseries] {
    if (slo[i] > 0) {
        set arrow from slo[i], graph 0 to slo[i], graph 1 nohead dt 3 lw 2 lc rgb fs_lc(i)
    }
}
plot for [i=1:nseries] datafile index (i - 1) using 1:2 with linespoints lw 2 pt fs_pt(i) ps 0.8 lc rgb fs_lc(i) dt fs_dt(i) title series[i], \
     NaN with lines dt 3 lw 2 lc rgb 'black' title 'SLO (colour of its workload)'
