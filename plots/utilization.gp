# utilization.gp -- GPUs provisioned (thick steps) and busy (thin line,
# same colour) of each pool over time.  Preamble from fleetsim: datafile
# (one block per series: days, gpus_provisioned, gpus_busy), series[]
# ("RUN / POOL"), nseries; the series styles fs_lc(i), fs_dt(i).  Each
# series is drawn at its value (never shifted apart from an equal one):
# colour and dash tell equal lines apart.
set title "GPU utilization per pool\nprovisioned GPUs (thick steps), busy GPUs (thin line, same colour)" noenhanced
set xlabel 'time since the scenario start (days)'
set ylabel 'GPUs'
set key outside right top vertical Left reverse noautotitle font ',11' samplen 3 spacing 0.9
set grid
set yrange [0:*]
plot for [i=1:nseries] datafile index (i - 1) using 1:2 with steps lw 2.5 lc rgb fs_lc(i) dt fs_dt(i) title series[i], \
     for [i=1:nseries] datafile index (i - 1) using 1:3 with lines lw 1 lc rgb fs_lc(i) notitle, \
     NaN with lines lw 1 lc rgb 'black' title 'busy GPUs (thin line)'
