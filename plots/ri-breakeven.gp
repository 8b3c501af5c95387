# ri-breakeven.gp -- what `fleetsim roi` recommends for a pool, in two
# panels: the hour-by-hour demand with the recommended reserved count and
# the on-demand overflow above it; the cumulative cost over the term, all
# on demand against with the reservation, break-even marked.  Preamble
# from fleetsim: datafile (per run: block 2i, days and instances in use;
# block 2i+1, month, all on demand, with the reservation), series[]
# (with roi's count and savings), count[], breakeven[] (-1: none in the
# term; 0, no upfront: saving from the first hour, not marked), nseries, term_months, peak, money_div, money_fmt; the series
# styles fs_lc(i), fs_dt(i).
set multiplot layout 2,1 title sprintf("Reserving what roi recommends (%d-month term, no upfront, hour-by-hour demand)", term_months) noenhanced
set key outside below vertical Left reverse noautotitle font ',11' spacing 0.9
set grid
set title "Instances in use hour by hour (x: days since the scenario start): the recommended reserved count (line)\nabove it, shaded: the on-demand overflow" noenhanced
set xlabel ''
set ylabel 'instances in use'
set yrange [0:(peak > 0 ? peak * 1.15 : 1)]
plot for [i=1:nseries] datafile index (2 * i - 2) using 1:(count[i]):($2 > count[i] ? $2 : count[i]) with filledcurves fs transparent solid 0.35 noborder lc rgb fs_lc(i) notitle, \
     for [i=1:nseries] datafile index (2 * i - 2) using 1:2 with lines lw 1.5 lc rgb fs_lc(i) notitle, \
     for [i=1:nseries] count[i] with lines lw 2.5 dt fs_dt(i) lc rgb fs_lc(i) title series[i], \
     NaN with filledcurves fs transparent solid 0.35 lc rgb '#777777' title 'on-demand overflow above the reserved count'
unset arrow
unset label
set title "Cumulative cost over the term: all on demand (solid) and with the reservation (dashed)" noenhanced
set xlabel 'months into the term'
set ylabel 'cumulative cost (USD)'
set format y money_fmt
set xrange [0:term_months]
set yrange [0:*]
unset key
do for [i=1:nseries] {
    if (breakeven[i] > 0) {
        set arrow from breakeven[i], graph 0 to breakeven[i], graph 1 nohead dt 4 lc rgb fs_lc(i)
        set label sprintf('break-even %.1f mo', breakeven[i]) at breakeven[i], graph (1 - 0.06 * i) left offset 0.5,0 textcolor rgb fs_lc(i)
    }
}
plot for [i=1:nseries] datafile index (2 * i - 1) using 1:($2 / money_div) with lines lw 2 lc rgb fs_lc(i) notitle, \
     for [i=1:nseries] datafile index (2 * i - 1) using 1:($3 / money_div) with lines lw 2 dt 2 lc rgb fs_lc(i) notitle
unset multiplot
