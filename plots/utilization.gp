# utilization.gp -- GPUs provisioned (solid steps) and busy (dashed) of
# each pool over time.  Preamble from fleetsim: datafile (one block per
# series: days, gpus_provisioned, gpus_busy), series[] ("RUN / POOL"),
# nseries.
set title "GPU utilization per pool\nprovisioned GPUs (solid) and busy GPUs (dashed), sampled every metrics_interval" noenhanced
set xlabel 'time since the scenario start (days)'
set ylabel 'GPUs'
set key outside below
set grid
set yrange [0:*]
plot for [i=1:nseries] datafile index (i - 1) using 1:2 with steps lw 2 lc i title series[i] . ' provisioned', \
     for [i=1:nseries] datafile index (i - 1) using 1:3 with lines dt 2 lc i title series[i] . ' busy'
