#!/bin/sh
# cli_docs.sh -- the documentation says what the program does.
#
# The scenario keys (sim/scenario/keys.c and the purchase options'), the
# run_summary columns (sim/store/columns.c) and the commands (main.c's
# table) are declared once; `fleetsim help keys|columns|commands` lists
# them.  Here every one of them must be in the man page, the doc/ page
# that explains it (doc/scenarios.md, doc/database.md, doc/running.md, to
# which README.md points) and `fleetsim help`; the man page's generated
# listings must be up to date (`make man`) and render without a groff warning; and the view in a new
# database must have exactly the declared columns, the contract's first.
. "$(dirname "$0")/cli_lib.sh"
MAN="$SRCDIR/doc/fleetsim.1"
README="$SRCDIR/README.md"
DOC="$SRCDIR/doc"

# expect_has FILE TEXT DESCRIPTION: like expect_in, one line of report.
expect_has() {
    checks=$((checks + 1))
    grep -qF -- "$2" "$1" || fail "$3: '$2' not found in $(basename "$1")"
}

# block FILE START END: the lines of FILE after the one that is exactly
# START, up to (not including) the next line matching the regular
# expression END.  (Through the environment: awk -v would read escapes.)
block() {
    START=$2 END=$3 awk '
        $0 == ENVIRON["START"] { on = 1; next }
        on && $0 ~ ENVIRON["END"] { exit }
        on { print }' "$1"
}

expect_exit 0 "help keys" -- "$FLEETSIM" help keys && cp "$TMP/out" "$TMP/keys"
expect_exit 0 "help columns" -- "$FLEETSIM" help columns && cp "$TMP/out" "$TMP/columns"
expect_exit 0 "help commands" -- "$FLEETSIM" help commands && cp "$TMP/out" "$TMP/commands"
expect_exit 0 "help scenario" -- "$FLEETSIM" help scenario && cp "$TMP/out" "$TMP/scenario"
expect_exit 0 "help" -- "$FLEETSIM" help && cp "$TMP/out" "$TMP/usage"

# ---- the listings are well formed ---------------------------------------
checks=$((checks + 1))
bad=$(awk -F '\t' 'NF != 4 || $1 !~ /^(scenario|pool|workload|window)\.[a-z_0-9]+$/' "$TMP/keys")
[ -z "$bad" ] || fail "help keys: malformed lines: $bad"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/keys")" -ge 40 ] || fail "help keys: only $(wc -l <"$TMP/keys") keys"
checks=$((checks + 1))
bad=$(awk -F '\t' 'NF != 4 || $2 !~ /^(text|id|money|hours|ratio|count|number|seconds|duration)$/' "$TMP/columns")
[ -z "$bad" ] || fail "help columns: malformed lines: $bad"
checks=$((checks + 1))
bad=$(awk -F '\t' 'NF != 3' "$TMP/commands")
[ -z "$bad" ] || fail "help commands: malformed lines: $bad"

# ---- the man page's generated parts are current and it renders cleanly --
checks=$((checks + 1))
if "$SRCDIR/doc/man-update.sh" "$FLEETSIM" "$MAN" "$TMP/fleetsim.1" 2>"$TMP/err"; then
    diff -u "$MAN" "$TMP/fleetsim.1" >"$TMP/diff" ||
        { fail "doc/fleetsim.1 is out of date with the tables: run \`make man\`"; head -20 "$TMP/diff"; }
else
    fail "doc/man-update.sh failed: $(cat "$TMP/err")"
fi
if command -v groff >/dev/null 2>&1; then
    checks=$((checks + 1))
    groff -man -Tutf8 -ww "$MAN" >"$TMP/man.txt" 2>"$TMP/groff.err"
    [ -s "$TMP/groff.err" ] && { fail "groff warns about doc/fleetsim.1"; head -5 "$TMP/groff.err"; }
else
    echo "cli_docs: groff not installed: the rendering check is skipped"
fi
for s in NAME SYNOPSIS DESCRIPTION COMMANDS ENVIRONMENT FILES EXAMPLES; do
    expect_has "$MAN" ".SH $s" "man page section"
done
for s in "SCENARIO FILE" "RESULTS DATABASE" "EXIT STATUS" "SEE ALSO"; do
    expect_has "$MAN" ".SH \"$s\"" "man page section"
done
for v in FLEETSIM_BUSY_TIMEOUT FLEETSIM_PROGRESS FLEETSIM_PROGRESS_INTERVAL FLEETSIM_CATALOG; do
    expect_has "$MAN" ".B $v" "man page ENVIRONMENT"
    expect_has "$DOC/running.md" "| \`$v" "doc/running.md Environment"
done

# ---- every key: man page, doc/scenarios.md (in its section), help scenario
for sec in scenario pool workload window; do
    case $sec in scenario) head="[scenario]" ;; *) head="[$sec.NAME]" ;; esac
    block "$DOC/scenarios.md" "### \`$head\`" '^##' >"$TMP/readme.$sec"
    block "$TMP/scenario" "$head" '^$' >"$TMP/help.$sec"
    block "$MAN" ".SS \"$head\"" '^\.S[SH]' >"$TMP/man.$sec"
    checks=$((checks + 1))
    [ -s "$TMP/readme.$sec" ] || fail "doc/scenarios.md has no section ### \`$head\`"
done
while IFS="$(printf '\t')" read -r id type def help; do
    sec=${id%%.*} key=${id#*.}
    expect_has "$TMP/man.$sec" "\\fB$key\\fR = " "man page, $id"
    expect_has "$TMP/readme.$sec" "\`$key\`" "doc/scenarios.md, $id"
    expect_has "$TMP/help.$sec" "  $key = " "help scenario, $id"
done <"$TMP/keys"

# ---- every run_summary column: man page, doc/database.md; the view has them all
block "$MAN" '.\" BEGIN GENERATED columns' '^[.]\\" END' >"$TMP/man.columns"
cp "$DOC/database.md" "$TMP/readme.db"
cut -f1 "$TMP/columns" >"$TMP/column.names"
while read -r col; do
    expect_has "$TMP/man.columns" ".B $col" "man page, run_summary.$col"
    expect_has "$TMP/readme.db" "$col" "doc/database.md, run_summary.$col"
done <"$TMP/column.names"
# The contract's columns, in its order, come first (more may follow).
contract="run_id name scenario seed replication horizon_s total_cost_usd
cost_per_month_usd gpu_hours_provisioned gpu_hours_busy utilization requests
requests_dropped latency_mean_s latency_p50_s latency_p99_s wait_mean_s
slo_attainment jobs jobs_missed_deadline interruptions"
n=$(echo $contract | wc -w)
expect_eq "$(head -n "$n" "$TMP/column.names" | tr '\n' ' ')" "$(echo $contract) " "run_summary: the contract's columns, in order"
DB="$TMP/docs.db"
expect_exit 0 "quickstart" -- "$FLEETSIM" run "$SRCDIR/scenarios/quickstart.ini" --db "$DB" --quiet
expect_eq "$(sql "$DB" "SELECT name FROM pragma_table_info('run_summary')")" \
    "$(cat "$TMP/column.names")" "the view's columns are the declared ones"

# ---- every command: help, man page (synopsis and section), doc/running.md
block "$DOC/running.md" "## Commands" '^## ' >"$TMP/readme.commands"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/commands")" -ge 7 ] || fail "help commands: only $(wc -l <"$TMP/commands")"
while IFS="$(printf '\t')" read -r cmd args summary; do
    expect_has "$TMP/usage" "  $cmd " "fleetsim help lists $cmd"
    expect_exit 0 "help $cmd" -- "$FLEETSIM" help "$cmd"
    expect_has "$TMP/out" "usage: fleetsim $cmd" "help $cmd"
    expect_exit 0 "$cmd --help" -- "$FLEETSIM" "$cmd" --help
    expect_has "$MAN" ".B fleetsim $cmd" "man page SYNOPSIS, $cmd"
    expect_has "$MAN" ".SS \"$cmd" "man page COMMANDS, $cmd"
    expect_has "$TMP/readme.commands" "fleetsim $cmd" "doc/running.md Commands, $cmd"
done <"$TMP/commands"
expect_exit 0 "--help" -- "$FLEETSIM" --help
cmp -s "$TMP/out" "$TMP/usage" || fail "--help differs from help"

# ---- every option of every command: doc/commands.md and the man page ----
# Both are printed from the option tables the parser reads (`make man`):
# the committed files must be current, and each option of `help options`
# must be in them, under its command.
COMMANDS_MD="$SRCDIR/doc/commands.md"
expect_exit 0 "help options" -- "$FLEETSIM" help options && cp "$TMP/out" "$TMP/options"
checks=$((checks + 1))
bad=$(awk -F '\t' 'NF != 4 || $2 !~ /^--?[a-z]/' "$TMP/options")
[ -z "$bad" ] || fail "help options: malformed lines: $bad"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/options")" -ge 60 ] || fail "help options: only $(wc -l <"$TMP/options") options"
expect_exit 0 "help --reference" -- "$FLEETSIM" help --reference
checks=$((checks + 1))
cmp -s "$TMP/out" "$COMMANDS_MD" ||
    fail "doc/commands.md is out of date with the option tables: run \`make man\`"
block "$MAN" '.\" BEGIN GENERATED options' '^[.]\\" END' >"$TMP/man.options"
block "$MAN" '.\" BEGIN GENERATED synopsis' '^[.]\\" END' >"$TMP/man.synopsis"
while IFS="$(printf '\t')" read -r cmd args summary; do
    expect_has "$COMMANDS_MD" "## $cmd" "doc/commands.md, $cmd"
    expect_has "$TMP/man.synopsis" ".B fleetsim $cmd" "man page SYNOPSIS (generated), $cmd"
done <"$TMP/commands"
while IFS="$(printf '\t')" read -r cmd opt value help; do
    block "$COMMANDS_MD" "## $cmd" '^## ' >"$TMP/md.cmd"
    block "$MAN" ".SS \"$cmd options\"" '^[.]S[SH]' >"$TMP/man.cmd"
    expect_has "$TMP/md.cmd" "\`$opt" "doc/commands.md, $cmd $opt"
    roff=$(printf '%s' "$opt" | sed 's/-/\\-/g')
    expect_has "$TMP/man.cmd" "\\fB$roff" "man page OPTIONS, $cmd $opt"
    expect_has "$TMP/man.options" "\\fB$roff" "man page OPTIONS, $opt"
done <"$TMP/options"

# ---- --man and misspelt topics -------------------------------------------
expect_exit 2 "help --man scenario" -- "$FLEETSIM" help --man scenario
expect_exit 2 "help colums" -- "$FLEETSIM" help colums
expect_in "$TMP/err" "did you mean 'columns'" "help suggests a topic"
# ---- main.c's table itself: every command there is in help and the man
# page (the table is read from the source, not through `help commands`)
sed -n 's/^ *{"\([a-z]*\)", cmd_[a-z_]*,.*/\1/p' "$SRCDIR/sim/cli/main.c" >"$TMP/main.commands"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/main.commands")" -ge 10 ] ||
    fail "main.c: only $(wc -l <"$TMP/main.commands") commands read from its table"
while read -r cmd; do
    expect_has "$TMP/usage" "  $cmd " "fleetsim help lists $cmd (main.c)"
    expect_has "$MAN" ".SS \"$cmd" "man page COMMANDS, $cmd (main.c)"
    expect_has "$TMP/commands" "$cmd	" "help commands lists $cmd (main.c)"
done <"$TMP/main.commands"

# ---- nothing that exists is said to come later ----------------------------
# Spot pools, training jobs and windows exist (their keys are in help keys):
# no sentence of help, README, a doc/ page or the man page that says
# "later version" may name them.
for k in pool.interruption workload.jobs window.every; do
    expect_has "$TMP/keys" "$k	" "help keys: $k exists"
done
for f in "$TMP/usage" "$README" "$DOC"/*.md "$MAN"; do
    checks=$((checks + 1))
    bad=$(tr '\n' ' ' <"$f" | sed 's/\([.;:]\) /\1\n/g' |
          grep -i 'later version' | grep -iE 'spot|training|window' || true)
    [ -z "$bad" ] || fail "$(basename "$f") says existing features come later: $bad"
done

# ---- README.md points into doc/: every page it names exists -------------
for page in $(grep -o '(doc/[a-zA-Z0-9_.-]*\.md)' "$README" | tr -d '()' | sort -u); do
    checks=$((checks + 1))
    # doc/commands.md is generated from the option tables by its own target
    [ -f "$SRCDIR/$page" ] || [ "$page" = doc/commands.md ] || fail "README.md links to $page, which does not exist"
done

# ---- README.md: short, its two commands first, the second the one .ci/run runs
checks=$((checks + 1))
[ "$(wc -l <"$README")" -le 350 ] || fail "README.md has $(wc -l <"$README") lines: move reference into doc/"
awk '/^```sh$/ { on = 1; n++; next } /^```/ { on = 0 } on && n <= 2 { print n ": " $0 }' "$README" >"$TMP/readme.cmds"
expect_in "$TMP/readme.cmds" "1: " "README.md's first command"
expect_in "$TMP/readme.cmds" "./fleetsim run scenarios/quickstart.ini" "README.md's first command runs the quickstart"
second=$(sed -n 's/^2: //p' "$TMP/readme.cmds")
checks=$((checks + 1))
[ -n "$second" ] && grep -qF -- "$second" "$SRCDIR/.ci/run" ||
    fail "README.md's second command ('$second') is not the one .ci/run runs"
checks=$((checks + 1))
first_h2=$(grep -m1 '^## ' "$README")
[ "$first_h2" = "## Two commands" ] || fail "README.md's first section is '$first_h2', not the two commands"

# ---- the schema version the docs give is the one a database gets ---------
v=$(sql "$DB" "PRAGMA user_version")
expect_has "$DOC/database.md" "\`PRAGMA user_version\` = $v " "doc/database.md: schema version $v"
expect_has "$MAN" "is the schema version ($v)." "man page: schema version $v"

report
