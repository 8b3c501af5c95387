# monthly-cost.gp -- calendar-month cost of each run, stacked by pricing
# model, each run's 730-hour run rate beside its months (a partial month's
# label says how many of its days ran).  fleetsim writes the preamble before this: terminal, output,
# datafile (rows: label index, then one cost column per pricing model),
# pricing[] and label[] (names), npricing, nlabels, wide (past 6 bars:
# numbered num[] over the named bars, named in a legend below), legend_rows, money_div and
# money_fmt.
set title "Monthly cost by pricing model\nthe bill of each calendar month of each run (a partial month says how many days ran), then the run's 730-hour run rate" noenhanced
set ylabel 'USD: calendar-month bill, 730-hour run rate'
set format y money_fmt
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7 relative
set grid ytics
set yrange [0:*]
if (wide) {
    set key outside below vertical maxrows legend_rows Left reverse font ',11' spacing 0.9
    set xtics nomirror
    plot for [c=1:npricing] datafile using (column(c + 1) / money_div):xtic(num[int(column(1))] == 0 ? '' : sprintf('%d', num[int(column(1))])) lc rgb fs_lc(c) title pricing[c], \
         for [i=1:nlabels] NaN with points ps 0 title (num[i] == 0 ? '' : sprintf('%d  %s', num[i], label[i]))
} else {
    set key outside right top title 'pricing model'
    set xtics rotate by -30 left nomirror
    plot for [c=1:npricing] datafile using (column(c + 1) / money_div):xtic(label[int(column(1))]) lc rgb fs_lc(c) title pricing[c]
}
