#!/bin/sh
# t7210-report-overview - the report opens with the answer: per
# distribution a heat map of algorithm x library whose cells hold the
# database's MB/s at 16 KiB, coloured by the fraction of the fastest
# library's; a "fastest per algorithm" table; a table of the libraries
# across distributions. Checked in the HTML against the database, then in
# headless Chromium (the colours as rendered); a screenshot is kept in the
# build directory (tests/t7210-report-overview.png).
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database with three runs of two distributions"
"$BENCHORCH" report --db "$db" -o "$tmp/report.html" 2>"$tmp/err"
ok $? "report -o report.html exits 0"

# check.py DB HTML RUN...: the overview's cells and tables against the
# database; prints what differs and exits 1, or exits 0.
cat >"$tmp/check.py" <<'PY'
import re, sqlite3, sys
from html.parser import HTMLParser

db, path, runs = sys.argv[1], sys.argv[2], [int(r) for r in sys.argv[3:]]
con = sqlite3.connect(db)
bad = []

class Cells(HTMLParser):
    """Every table of the overview section: class, caption and rows of
    (text, attributes) cells."""
    def __init__(self):
        super().__init__()
        self.tables, self.cell, self.inside = [], None, False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and a.get("id") == "overview":
            self.inside = True
        if not self.inside:
            return
        if tag == "table":
            self.tables.append({"attrs": a, "rows": [], "caption": ""})
        elif tag == "tr":
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th"):
            self.cell = [tag, "", a]
        elif tag == "caption":
            self.cell = ["caption", "", a]
    def handle_endtag(self, tag):
        if tag == "section":
            self.inside = False
        if self.cell and tag == self.cell[0]:
            if tag == "caption":
                self.tables[-1]["caption"] = self.cell[1]
            else:
                self.tables[-1]["rows"][-1].append(tuple(self.cell))
            self.cell = None
    def handle_data(self, data):
        if self.cell:
            self.cell[1] += data

p = Cells()
p.feed(open(path).read())
heat = [t for t in p.tables if t["attrs"].get("class") == "heatmap"]
fast = [t for t in p.tables if t["attrs"].get("class") == "fastest"]
across = [t for t in p.tables if t["attrs"].get("class") == "across"]

def fmt(v):
    return "%.2f" % v if v < 10 else "%.1f" % v if v < 100 else "%.0f" % v

want = {}
for run, d, a, lib, size, mbps, hz in con.execute(
        "select v.run_id, v.distro || ':' || v.release, v.algorithm,"
        " v.library, v.buffer_bytes, v.mb_per_s,"
        " (i.clock_start_hz + i.clock_end_hz) / 2.0 from results_v v"
        " join results r on r.id = v.result_id join invocations i"
        " on i.id = r.invocation_id where v.run_id in (%s)"
        " and v.mode = 'bulk' and v.operation in ('encrypt', 'hash')"
        " and v.buffer_bytes in (16, 16384)" % ",".join("?" * len(runs)),
        runs):
    want.setdefault((run, d), {}).setdefault(a, {}).setdefault(size, {})[lib] = (mbps, hz)

if len(heat) != len(want):
    bad.append("%d heat maps for %d distributions" % (len(heat), len(want)))
ncells = 0
for t in heat:
    key = (int(t["attrs"]["data-run"]), t["attrs"]["data-distro"])
    libs = [c[1] for c in t["rows"][0][1:]]
    algos = want.get(key, {})
    if sorted(r[0][1] for r in t["rows"][1:]) != sorted(algos):
        bad.append("%s: rows %s" % (key, [r[0][1] for r in t["rows"][1:]]))
    for row in t["rows"][1:]:
        a = row[0][1]
        large = algos.get(a, {}).get(16384, {})
        top = max(v for v, _ in large.values())
        for lib, (_, text, attrs) in zip(libs, row[1:]):
            if lib not in large:
                bad.append("%s %s %s: no such point, cell %r" % (key, a, lib, text))
                continue
            v = large[lib][0]
            hue = round(120 * v / top)
            exp = (fmt(v), "%.3f" % v, "%.4f" % (v / top),
                   "background:hsl(%d,70%%,72%%)" % hue)
            got = (text, attrs.get("data-mbps"), attrs.get("data-ratio"),
                   attrs.get("style"))
            if got != exp:
                bad.append("%s %s %s: cell %s, database %s" % (key, a, lib, got, exp))
            if "%.0f %% of the fastest" % (100 * v / top) not in attrs.get("title", ""):
                bad.append("%s %s %s: title %r" % (key, a, lib, attrs.get("title")))
            ncells += 1
if ncells != sum(len(s.get(16384, {})) for al in want.values() for s in al.values()):
    bad.append("%d cells" % ncells)

# fastest per algorithm: one row per (distribution, algorithm)
rows = fast[0]["rows"][1:] if fast else []
if len(rows) != sum(len(al) for al in want.values()):
    bad.append("%d fastest rows" % len(rows))
for r in rows:
    cells = [c[1] for c in r]
    d = re.sub(r" \(run \d+\)$", "", cells[0])
    m = re.search(r"\(run (\d+)\)", cells[0])
    run = int(m.group(1)) if m else runs[0]
    sizes = want[(run, d)][cells[1]]
    large = sorted(sizes[16384].items(), key=lambda kv: -kv[1][0])
    lib, (v, hz) = large[0]
    small = max(sizes[16].items(), key=lambda kv: kv[1][0])
    if hz:
        cpb = "%.2f" % (hz / (v * 1e6))
    else:
        # no measured clock: the nominal one of the CPU's model name, marked
        model = con.execute("select c.model_name from runs r join cpus c"
                            " on c.id = r.cpu_id where r.id = ?", (run,)).fetchone()[0]
        ghz = float(re.search(r"@ *([0-9.]+) *GHz", model).group(1))
        cpb = "%.2f*" % (ghz * 1e3 / v)
    if not cells[2].startswith(lib + " ") or cells[3] != fmt(v) or \
       cells[4] != cpb or \
       cells[5] != "%s \u00d7%.2f" % (large[1][0], large[1][1][0] / v) or \
       cells[6] != "%s \u00d7%.2f" % (large[-1][0], large[-1][1][0] / v) or \
       cells[7] != small[0] or cells[8] != fmt(small[1][0]):
        bad.append("fastest row %s against %s" % (cells, large))

ndist = {}
for run, d in want:
    ndist[run] = ndist.get(run, 0) + 1
if (max(ndist.values()) > 1) != bool(across):
    bad.append("across table: %d, distributions per run %s" % (len(across), ndist))
if across:
    libs = []
    for run in sorted(ndist):
        if ndist[run] > 1:
            libs += sorted({l + (" (run %d)" % run if len(runs) > 1 else "")
                            for (r, d), al in want.items() if r == run
                            for s in al.values() for l in s[16384]})
    got = [r[0][1] for r in across[0]["rows"][1:]]
    if got != libs:
        bad.append("across rows %s, libraries %s" % (got, libs))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY

# overview DB HTML RUN...: check.py, its findings as diagnostics.
overview() {
	python3 "$tmp/check.py" "$@" >"$tmp/found"
	rc=$?
	sed 's/^/# /' "$tmp/found"
	return $rc
}
overview "$db" "$tmp/report.html" 3
ok $? "heat maps (values, fractions, colours, hover text), fastest per algorithm and libraries across distributions match the database"
[ "$(grep -n 'id="overview"' "$tmp/report.html" | cut -d: -f1)" -lt "$(grep -n '<svg ' "$tmp/report.html" | head -1 | cut -d: -f1)" ] &&
	[ "$(grep -n 'id="overview"' "$tmp/report.html" | cut -d: -f1)" -lt "$(grep -n 'id="runs"' "$tmp/report.html" | cut -d: -f1)" ]
ok $? "the overview comes first, before the runs and the charts"
grep -q '<td>openssl, debian:bookworm</td>' "$tmp/report.html" &&
	! grep -Eiq '<script|<link|<img|<iframe|src=|href=|@import|url\(' "$tmp/report.html"
ok $? "still self-contained, the rest of the report still there"

"$BENCHORCH" report --db "$db" --run 1 --run 3 -o "$tmp/two.html" 2>"$tmp/err"
overview "$db" "$tmp/two.html" 1 3 &&
	grep -q '<caption>debian:bookworm (run 1): MB/s at 16 KiB</caption>' "$tmp/two.html"
ok $? "two runs: a heat map per run and distribution, named by run"

cp "$db" "$tmp/one.db"
sqlite3 "$tmp/one.db" "pragma foreign_keys = on; delete from invocations where spec = 'ubuntu:noble'"
"$BENCHORCH" report --db "$tmp/one.db" -o "$tmp/one.html" 2>"$tmp/err"
overview "$tmp/one.db" "$tmp/one.html" 3 &&
	! grep -q 'class="across"' "$tmp/one.html"
ok $? "one distribution: one heat map, no table across distributions"

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
	echo "ok $((tap_n + 1)) # SKIP needs chromium (scripts/deps.sh installs it)"
	tap_n=$((tap_n + 1))
	done_testing
	exit
fi
# Inside the rendered page: each heat map cell's computed background
# colour, with its fraction, one line each.
cat >"$tmp/check.js" <<'JS'
var out = [];
document.querySelectorAll("table.heatmap td[data-ratio]").forEach(function (td) {
  var r = td.getBoundingClientRect();
  out.push("@" + "@CELL " + td.getAttribute("data-ratio") + " " +
           getComputedStyle(td).backgroundColor + " " +
           (r.width > 0 && r.height > 0 ? "shown" : "hidden"));
});
var pre = document.createElement("pre");
pre.id = "check";
pre.textContent = out.join("\n");
document.body.appendChild(pre);
JS
python3 - "$tmp/report.html" "$tmp/check.js" "$tmp/check.html" <<'PY'
import sys
html, js = open(sys.argv[1]).read(), open(sys.argv[2]).read()
open(sys.argv[3], "w").write(html.replace("</body>", "<script>" + js + "</script></body>"))
PY
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$tmp/profile" --dump-dom "file://$tmp/check.html" \
	>"$tmp/dom" 2>"$tmp/chromium.err"
ok $? "headless chromium renders the report"
sed -n 's/.*@@CELL /CELL /p' "$tmp/dom" | sed 's/<\/pre>.*//' >"$tmp/cells"
python3 - "$tmp/cells" >"$tmp/found" <<'PY'
import colorsys, re, sys
bad, n = [], 0
for line in open(sys.argv[1]):
    m = re.match(r"CELL ([0-9.]+) rgb\((\d+), (\d+), (\d+)\) (\w+)", line)
    if not m:
        bad.append(line.strip())
        continue
    ratio = float(m.group(1))
    want = colorsys.hls_to_rgb(round(120 * ratio) / 360, 0.72, 0.70)
    got = [int(m.group(i)) for i in (2, 3, 4)]
    if any(abs(g - 255 * w) > 1.5 for g, w in zip(got, want)) or m.group(5) != "shown":
        bad.append("ratio %s: %s, want %s" % (ratio, got, [round(255 * w) for w in want]))
    n += 1
print("%d cells" % n)
for b in bad:
    print(b)
sys.exit(1 if bad or n != 12 else 0)
PY
rc=$?
sed 's/^/# /' "$tmp/found"
[ $rc -eq 0 ]
ok $? "the twelve cells are drawn in the colour of their fraction (green fastest, red slowest)"
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$tmp/profile" --window-size=1200,1000 \
	--screenshot="$top_builddir/tests/t7210-report-overview.png" \
	"file://$tmp/report.html" >/dev/null 2>"$tmp/chromium.err"
[ -s "$top_builddir/tests/t7210-report-overview.png" ]
ok $? "screenshot kept as tests/t7210-report-overview.png in the build directory"

done_testing
