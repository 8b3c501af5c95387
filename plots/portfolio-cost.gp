# portfolio-cost.gp -- each run's cost under the commitment portfolio
# (`fleetsim commit` on the runs) beside all on demand and the sum of
# roi's one-pool answers.  Preamble from fleetsim: datafile (x, portfolio,
# all on demand, roi), label[], nruns, p10, p50, p90, horizon_months (0:
# the runs' hours; else the costs are over that horizon, roi's left out),
# money_div, money_fmt.
span = horizon_months > 0 ? sprintf("%d months of 730 h, each run grown", horizon_months) : "each run's hours"
set title "Cost of the commitment portfolio against the alternatives\n".span."; lines: the portfolio's p10, p50 and p90 across the runs" noenhanced
set ylabel (horizon_months > 0 ? 'cost over the horizon (USD)' : 'cost over the run (USD)')
set format y money_fmt
set xrange [0.4:nruns + 0.6]
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set grid ytics
set style fill solid 0.85 border -1
set boxwidth 0.25
set xtics 1 nomirror rotate by -20 left
set key outside below horizontal noautotitle
plot datafile using ($1 - 0.27):($2 / money_div):xtic(label[int($1)]) with boxes lc rgb 0x4c72b0 title 'portfolio', \
     datafile using 1:($3 / money_div) with boxes lc rgb 0xd62728 title 'all on demand', \
     datafile using ($1 + 0.27):($4 / money_div) with boxes lc rgb 0x2ca02c title "roi's per-pool answers", \
     p10 / money_div with lines lc rgb 0x4c72b0 dt 3 title 'portfolio p10', \
     p50 / money_div with lines lc rgb 0x4c72b0 dt 1 title 'portfolio p50', \
     p90 / money_div with lines lc rgb 0x4c72b0 dt 2 title 'portfolio p90'
