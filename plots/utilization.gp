# utilization.gp -- GPUs provisioned (thick steps) and busy (thin line,
# same colour) of each pool over time.  Preamble from fleetsim: datafile
# (one block per series: days, gpus_provisioned, gpus_busy), series[]
# ("RUN / POOL"), nseries, ystep (GPUs: series i is drawn ystep x (i -
# (nseries + 1) / 2) above its value, so that lines at equal height stay
# apart; 0 for one series); the series styles fs_lc(i), fs_dt(i).
set title sprintf("GPU utilization per pool\nprovisioned GPUs (thick steps), busy GPUs (thin line, same colour)%s", ystep > 0 ? sprintf("\neach series shifted by up to %.2g GPUs so that equal lines stay apart", ystep * (nseries - 1) / 2.0) : "") noenhanced
set xlabel 'time since the scenario start (days)'
set ylabel 'GPUs'
set key outside right top vertical Left reverse noautotitle font ',9' samplen 3 spacing 0.9
set grid
set yrange [0:*]
off(i) = ystep * (i - (nseries + 1) / 2.0)
plot for [i=1:nseries] datafile index (i - 1) using 1:($2 + off(i)) with steps lw 2.5 lc rgb fs_lc(i) dt fs_dt(i) title series[i], \
     for [i=1:nseries] datafile index (i - 1) using 1:($3 + off(i)) with lines lw 1 lc rgb fs_lc(i) notitle, \
     NaN with lines lw 1 lc rgb 'black' title 'busy GPUs (thin line)'
