# ri-breakeven.gp -- cumulative cost over a reservation's term: the
# pool's on-demand spend (solid), the reservation paid monthly (dashed)
# and paid upfront (dotted), break-even marked.  Preamble from fleetsim:
# datafile (one block per run: month, on-demand, reserved monthly,
# reserved upfront), series[], breakeven[] (-1: none in the term),
# nseries, term_months, money_div, money_fmt.
set title sprintf("Reserved against on-demand over a %d-month term\non-demand: the pool's average GPUs at its on-demand rate\nreserved: that many GPUs rounded up at the catalog's reserved rate", term_months) noenhanced
set xlabel 'months into the term'
set ylabel 'cumulative cost (USD)'
set format y money_fmt
set xrange [0:term_months]
set yrange [0:*]
set key outside below
set grid
do for [i=1:nseries] {
    if (breakeven[i] >= 0) {
        set arrow from breakeven[i], graph 0 to breakeven[i], graph 1 nohead dt 4 lc i
        set label sprintf('break-even %.1f mo', breakeven[i]) at breakeven[i], graph (1 - 0.05 * i) left offset 0.5,0 textcolor lt i
    }
}
plot for [i=1:nseries] datafile index (i - 1) using 1:($2 / money_div) with lines lw 2 lc i title series[i] . ': on-demand', \
     for [i=1:nseries] datafile index (i - 1) using 1:($3 / money_div) with lines lw 2 dt 2 lc i title series[i] . ': reserved, paid monthly', \
     for [i=1:nseries] datafile index (i - 1) using 1:($4 / money_div) with lines lw 2 dt 3 lc i title series[i] . ': reserved, paid upfront'
