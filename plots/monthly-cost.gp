# monthly-cost.gp -- calendar-month cost of each run, stacked by pricing
# model.  fleetsim writes the preamble before this: terminal, output,
# datafile (rows: label index, then one cost column per pricing model),
# pricing[] and label[] (names), npricing, money_div and money_fmt.
set title "Monthly cost by pricing model\ncalendar months from each run's start (cost_monthly)" noenhanced
set ylabel 'cost per calendar month (USD)'
set format y money_fmt
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7 relative
set key outside right top title 'pricing model'
set grid ytics
set xtics rotate by -30 left nomirror
set yrange [0:*]
plot for [c=1:npricing] datafile using (column(c + 1) / money_div):xtic(label[int(column(1))]) title pricing[c]
