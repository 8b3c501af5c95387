# db_rows.sh -- db_rows DB: every stored row of a fleetsim database as
# canonical text, to compare two databases row for row: each table's rows
# with the run they belong to named by (name, replication) instead of its
# id, reals with 17 significant digits (bit-identical when equal), sorted.
# Left out: ids (run_id, uid: a merge gives new ids, keeps uid) and the
# wall-clock columns (started_at, finished_at).  Sourced by the tests that
# compare a merged database with one machine's (cli_merge.sh,
# cli_slurm.sh).
db_rows() {
    local db=$1 t cols
    for t in run cost_monthly latency utilization job pool cost_allocation \
             interruption; do
        cols=$(sqlite3 "$db" "SELECT group_concat(CASE WHEN type = 'REAL' THEN
            'printf(''%!.17g'', t.\"' || name || '\")' ELSE 'replace(quote(t.\"' || name || '\"), char(10), ''\\n'')' END, ' || ''|'' || ')
            FROM pragma_table_info('$t') WHERE name NOT IN ('run_id', 'uid', 'started_at', 'finished_at')")
        echo "== $t"
        sqlite3 "$db" "SELECT r.name || '|' || r.replication || '|' || $cols
            FROM \"$t\" t JOIN run r ON r.run_id = t.run_id" | LC_ALL=C sort
    done
    echo "== run_summary"
    sqlite3 "$db" "SELECT * FROM run_summary" | cut -d'|' -f2- | LC_ALL=C sort
}
