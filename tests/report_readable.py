#!/usr/bin/env python3
"""report_readable.py -- what a reader of `fleetsim report`'s HTML sees,
measured in headless chromium (tests/cli_report.sh).

  report_readable.py inject PAGE OUT
      OUT is PAGE with a script that measures, once laid out, every chart
      text as rendered: its computed font size times the scale the page
      draws its <svg> at (getScreenCTM), and writes the smallest and those
      under 11 px into <pre id="fontcheck">.
  report_readable.py check DOM DB RUN...
      DOM is chromium's --dump-dom of OUT.  Prints one line per problem:
      chart text under 11 px, a workload of a run (latency or
      cost_allocation in DB) missing from the showback table, a duration
      written with an exponent (1.884e-07 s) anywhere in the page's text.
"""
import html
import re
import sqlite3
import sys

SCRIPT = """<script>
(function () {
  var min = 1e9, n = 0, small = [];
  document.querySelectorAll('svg text').forEach(function (t) {
    var s = t.textContent.trim();
    var m = t.getScreenCTM();
    if (!s || !m) return;
    var px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    n++;
    if (px < min) min = px;
    if (px < 11) small.push(px.toFixed(2) + ' px: ' + s.slice(0, 60));
  });
  var p = document.createElement('pre');
  p.id = 'fontcheck';
  p.textContent = 'texts ' + n + ' min ' + min.toFixed(2) + '\\n' + small.join('\\n');
  document.body.appendChild(p);
})();
</script>
"""


def inject(page, out):
    text = open(page, encoding="utf-8").read()
    open(out, "w", encoding="utf-8").write(text.replace("</body>", SCRIPT + "</body>"))


def cells(row):
    return [html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]


def check(dom_path, db, runs):
    dom = open(dom_path, encoding="utf-8").read()
    problems = []
    m = re.search(r'<pre id="fontcheck">(.*?)</pre>', dom, re.S)
    if not m:
        problems.append("no font measurement in the page")
    else:
        lines = html.unescape(m.group(1)).split("\n")
        head = re.match(r"texts (\d+) min ([\d.]+)", lines[0])
        if not head or int(head.group(1)) < 50:
            problems.append("fonts: too few chart texts measured: " + lines[0])
        problems += ["chart text under 11 px: " + l for l in lines[1:] if l]
        print(lines[0])
    # the showback table: every workload of every run
    part = dom.split("Utilization and latency against SLO per workload", 1)
    table = re.search(r"<table>(.*?)</table>", part[1], re.S).group(1) if len(part) == 2 else ""
    shown = {tuple(cells(r)[:2]) for r in re.findall(r"<tr>(.*?)</tr>", table, re.S)}
    con = sqlite3.connect(db)
    for name in runs:
        rid = con.execute("SELECT run_id FROM run WHERE name = ? ORDER BY run_id DESC", (name,)).fetchone()[0]
        for (w,) in con.execute(
                "SELECT workload FROM latency WHERE run_id = ?1 UNION SELECT workload FROM"
                " cost_allocation WHERE run_id = ?1 AND workload IS NOT NULL", (rid,)):
            if (name, w) not in shown:
                problems.append("showback: workload %s of run %s missing" % (w, name))
    # no exponent in the text a reader sees (the charts' text included)
    text = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<(style|script)\b.*?</\1>", "", dom, flags=re.S)))
    for e in sorted(set(re.findall(r"\S*\de[-+]\d\S*", text))):
        problems.append("an exponent: " + e)
    for p in problems:
        print("PROBLEM " + p)


if __name__ == "__main__":
    if sys.argv[1] == "inject":
        inject(sys.argv[2], sys.argv[3])
    else:
        check(sys.argv[2], sys.argv[3], sys.argv[4:])
