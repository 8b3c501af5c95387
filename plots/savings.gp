# savings.gp -- waterfall of run-rate cost from the baseline run through
# the others.  Preamble from fleetsim: datafile (x, bottom, top, kind: 1
# total, 2 saving, 3 increase), label[], amount[], nbars, wide (past 6
# bars: numbered, named in a legend below, amounts upright), legend_rows,
# money_div, money_fmt.
set title "Savings against the baseline\nrun-rate cost (the horizon's cost scaled to a 730-hour month)\ngreen: a saving, red: an increase, from the previous bar" noenhanced
set ylabel 'run-rate cost (USD per 730-hour month)'
set format y money_fmt
set xrange [0.4:nbars + 0.6]
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set grid ytics
set style fill solid 0.85 border -1
set boxwidth 0.6
colour(k) = k == 1 ? 0x4c72b0 : k == 2 ? 0x2ca02c : 0xd62728
if (wide) {
    set xtics 1 nomirror
    set offsets 0, 0, graph 0.3, 0
    set key outside below vertical maxrows legend_rows Left reverse noautotitle font ',11' spacing 0.9 samplen 0
    plot datafile using 1:($2 / money_div):($2 / money_div):($3 / money_div):($3 / money_div):(colour($4)):xtic(sprintf('%d', int($1))) with candlesticks lc rgb variable notitle, \
         datafile using 1:($3 / money_div):(amount[int($1)]) with labels rotate by 90 left offset 0,0.6 font ',11' notitle, \
         for [i=1:nbars] NaN with points ps 0 title sprintf('%d  %s', i, label[i])
} else {
    set xtics 1 nomirror rotate by -20 left
    set key off
    plot datafile using 1:($2 / money_div):($2 / money_div):($3 / money_div):($3 / money_div):(colour($4)):xtic(label[int($1)]) with candlesticks lc rgb variable notitle, \
         datafile using 1:($3 / money_div):(amount[int($1)]) with labels offset 0,0.9 notitle
}
