#!/bin/sh
# cli_windows.sh -- offline windows from the command line: a batch workload
# on a pool that follows a window, office hours in a time zone, and bad
# inputs (file:line:key, exit 1, nothing written).
. "$(dirname "$0")/cli_lib.sh"
DB="$TMP/win.db"

cat >"$TMP/win.ini" <<'INI'
[scenario]
horizon = 1d
timezone = Europe/Paris
[window.office]
days = mon-fri
open = 09:00
close = 19:00
[pool.dev]
gpu = L4
price = 1.00
count = 2
schedule = office
[workload.dev]
kind = batch
pools = dev
arrivals = poisson(rate=1/s)
service = const(100ms)
INI
# 2026-01-01 is a Thursday: open 08:00-18:00 UTC, 2 instances, 10 h at $1
expect_exit 0 "office hours" -- "$FLEETSIM" run "$TMP/win.ini" --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT total_cost_usd FROM run_summary")" "20.0" "billed 2 x 10 office hours"
expect_eq "$(sql "$DB" "SELECT sum(instances_up) FROM utilization WHERE t_s <= 28800")" "0.0" "down before 09:00 Paris"
# the same pool always up: 48 instance-hours
sed '/^schedule/d; s/^kind = batch/kind = inference/' "$TMP/win.ini" >"$TMP/always.ini"
expect_exit 0 "always up" -- "$FLEETSIM" run "$TMP/always.ini" --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT total_cost_usd FROM run_summary WHERE run_id = 2")" "48.0" "billed 2 x 24 h"

sed 's/^schedule = office/schedule = offce/' "$TMP/win.ini" >"$TMP/missing.ini"
bad_run missing "missing.ini:12: pool.dev.schedule: no window named 'offce' (did you mean 'office'?)"
sed 's/^timezone = .*/timezone = Mars\/Olympus/' "$TMP/win.ini" >"$TMP/tz.ini"
bad_run tz "tz.ini:3: scenario.timezone: unknown time zone"
sed 's/^open = 09:00/open = 9h/' "$TMP/win.ini" >"$TMP/open.ini"
bad_run open "open.ini:6: window.office.open: expected a time of day HH:MM"
sed 's/^close = 19:00/close = 08:00/' "$TMP/win.ini" >"$TMP/close.ini"
bad_run close "close.ini:7: window.office.close: must be after open"
sed 's/^days = mon-fri/days = monday-friday/' "$TMP/win.ini" >"$TMP/days.ini"
bad_run days "days.ini:5: window.office.days: expected days such as mon-fri"
sed 's/^days = mon-fri/days = mon-fri\nevery = 1d/' "$TMP/win.ini" >"$TMP/every.ini"
bad_run every "every.ini:6: window.office.every: not with days"
sed 's/^count = 2/autoscale = queue(target=1)\nmax = 2/' "$TMP/win.ini" >"$TMP/autoscale.ini"
bad_run autoscale "pool.dev.schedule: a pool follows a schedule or autoscales, not both"
sed 's/^count = 2/count = 2\npricing = spot/' "$TMP/win.ini" >"$TMP/spot.ini"
bad_run spot "spot.ini:13: pool.dev.schedule: a spot pool relaunches to its count after each interruption and cannot follow a window in this version"
sed '/^schedule/d; s/^count = 2/count = 2\ndrain = yes/' "$TMP/win.ini" >"$TMP/drain.ini"
bad_run drain "drain.ini:12: pool.dev.drain: applies to pools with a schedule only"
sed '/^schedule/d' "$TMP/win.ini" >"$TMP/unscheduled.ini"
bad_run unscheduled "unscheduled.ini:14: workload.dev.pools: pool dev has no schedule: a batch workload's pools follow its window"
sed 's/^kind = batch/kind = inference\nwindow = office/' "$TMP/win.ini" >"$TMP/inference_window.ini"
bad_run inference_window "workload.dev.window: applies to batch workloads only"
report
