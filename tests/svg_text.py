#!/usr/bin/env python3
"""svg_text.py SVG -- for tests/cli_plot.sh: the text a gnuplot SVG draws
and whether any two pieces of it print over each other.

Each <text> of gnuplot's SVG sits in a <g transform="translate(X,Y)"> with
its font size and anchor (start, middle, end), possibly rotated.  A piece
of text is taken as a box 0.55 em wide per character and 0.8 em high
(Sans); two boxes that intersect by more than 1 px each way overprint.
Prints one line per overprint ("OVERLAP 'a' 'b'"), then "texts N"."""
import re
import sys
import html

svg = open(sys.argv[1], encoding="utf-8").read()
boxes = []
for m in re.finditer(r'<g transform="translate\(([-\d.]+),([-\d.]+)\)( rotate\(([-\d.]+)\))?"([^>]*)>\s*<text[^>]*>(.*?)</text>', svg, re.S):
    x, y = float(m.group(1)), float(m.group(2))
    rot = float(m.group(4) or 0)
    attrs = m.group(5)
    text = html.unescape(re.sub(r"<[^>]+>", "", m.group(6))).strip()
    if not text:
        continue
    fs = re.search(r'font-size="([\d.]+)"', attrs)
    fs = float(fs.group(1)) if fs else 10.0
    anchor = re.search(r'text-anchor="(\w+)"', attrs)
    anchor = anchor.group(1) if anchor else "start"
    w, h = 0.55 * fs * len(text), 0.8 * fs
    x0 = x - (w if anchor == "end" else w / 2 if anchor == "middle" else 0)
    box = (x0, y - h, x0 + w, y)
    if abs(rot) % 180 == 90:     # upright: width along y
        y0 = y - (w if anchor in ("start", "") else w / 2 if anchor == "middle" else 0)
        box = (x - h, y0, x, y0 + w)
    elif rot:
        continue                 # slanted tics: not checked
    boxes.append((box, text))
n = 0
for i in range(len(boxes)):
    for j in range(i):
        a, b = boxes[i][0], boxes[j][0]
        if min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1:
            print("OVERLAP %r %r" % (boxes[j][1], boxes[i][1]))
            n += 1
print("texts", len(boxes))
