#!/bin/sh
# t7200-report - `benchorch report`: one self-contained HTML file whose
# charts, rendered by headless Chromium, have the expected series and axis
# labels, with each run's seed and CPU state, each library in one colour
# in every chart (with a legend) even where a chart lacks another
# library; a screenshot is kept in the build directory
# (tests/t7200-report.png); `-o FILE.svg` writes one chart alone.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database with three runs"

"$BENCHORCH" report --db "$db" -o "$tmp/report.html" 2>"$tmp/err"
ok $? "report -o report.html exits 0"
grep -q '^<!DOCTYPE html>' "$tmp/report.html" && grep -q '</html>$' "$tmp/report.html"
ok $? "writes a whole HTML document"
! grep -Eiq '<script|<link|<img|<iframe|src=|href=|@import|url\(' "$tmp/report.html" &&
	[ "$(grep -o 'http[s]*://[^"]*' "$tmp/report.html" | sort -u)" = "http://www.w3.org/2000/svg" ]
ok $? "self-contained: no script, no link, no URL but the SVG namespace"
[ "$(grep -c '<svg ' "$tmp/report.html")" -eq 3 ]
ok $? "three charts: aes-256-gcm encrypt and decrypt, sha-256 hash"
grep -q '<caption>MB/s at 16 KiB</caption>' "$tmp/report.html"
ok $? "a distro x library table at 16 KiB"
grep -q '<th>overhead (ns/call)</th><th>ns/byte</th><th>slope cyc/B</th>' "$tmp/report.html"
ok $? "start-up overhead and cycles per byte per curve"
grep -q '<td>openssl, debian:bookworm</td><td class="num">100</td><td class="num">0.250</td><td class="num">0.75</td>' "$tmp/report.html"
ok $? "the stored fit: the fixture's 100 ns + 0.25 ns/B, 0.75 cycles/B at the measured 3.0 GHz"
grep -q 'times the core clock the guest measured' "$tmp/report.html" &&
	! grep -q 'nominal clock' "$tmp/report.html" &&
	grep -q '<tr><td>3</td><td>debian:bookworm</td><td>3.100</td><td>2.900</td><td>none</td><td>1.000</td><td>1.001</td><td>1 of 83</td></tr>' "$tmp/report.html"
ok $? "the page says so, with each invocation's clocks, elapsed times and noisy points"
"$BENCHORCH" report --db "$db" --run 1 --run 99 -o "$tmp/none.html" 2>"$tmp/err"
ok $([ $? -eq 2 ] && grep -q "no run 99 in '$db'" "$tmp/err" && [ ! -e "$tmp/none.html" ]; echo $?) \
	"an unknown run is an unknown name: exit 2, no file"
"$BENCHORCH" report --db "$db" --run 1 -o "$tmp/old.html" 2>"$tmp/err"
grep -q '<td>openssl, debian:bookworm</td><td class="num">100</td><td class="num">0.250</td><td class="num">0.55\*</td>' "$tmp/old.html" &&
	grep -q 'stored before the guest measured its clock use the nominal clock stated in the CPU model name (2.20 GHz)' "$tmp/old.html"
ok $? "a run without a measured clock falls back to the nominal 2.2 GHz (0.55*), and says so"
grep -Eq '<td>openssl, debian:bookworm</td>(<td class="num">[^<]*</td>){4}<td class="num">150</td>' "$tmp/report.html" &&
	grep -Eq '<td>nettle, debian:bookworm</td>(<td class="num">[^<]*</td>){4}<td class="num">—</td>' "$tmp/report.html"
ok $? "the measured key setup (150 ns/key) where there is one, a dash elsewhere"
grep -q 'Intel(R) Xeon(R) CPU @ 2.20GHz' "$tmp/report.html" &&
	grep -q '<td>libgcrypt20</td><td>1.10.1-3+b1</td>' "$tmp/report.html"
ok $? "the run's CPU and package versions"
grep -q '<td>seed 1003, 1 round</td><td>cpu 1: governor powersave, boost on, scaling frequency 2200 -&gt; 1800 MHz, hypervisor KVMKVMKVM</td><td class="warn">the scaling governor of cpu 1 is &#39;powersave&#39;' "$tmp/report.html"
ok $? "the run's seed, CPU state and warnings"

"$BENCHORCH" report --db "$db" --run 1 --run 3 --size 1KiB -o "$tmp/two.html"
ok $? "--run twice, --size 1KiB"
grep -q '<caption>MB/s at 1 KiB</caption>' "$tmp/two.html" &&
	grep -q 'data-label="libgcrypt, debian:bookworm, run 3"' "$tmp/two.html"
ok $? "two runs: series labelled by run, table at 1 KiB"

"$BENCHORCH" report --db "$db" --algo sha-256 -o "$tmp/chart.svg"
ok $? "report -o chart.svg exits 0"
python3 - "$tmp/chart.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {'s': 'http://www.w3.org/2000/svg'}
root = ET.parse(sys.argv[1]).getroot()
assert root.get('data-title') == 'sha-256 hash', root.get('data-title')
assert len(root.findall(".//s:g[@class='series']", ns)) == 6
PY
ok $? "the SVG file is well-formed XML with the sha-256 chart's six series"
"$BENCHORCH" report --db "$db" --algo chacha20-poly1305 -o "$tmp/x.html" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "no results for algorithm 'chacha20-poly1305'" "$tmp/err" && [ ! -e "$tmp/x.html" ]
ok $? "an algorithm without results exits 1 and writes nothing"
"$BENCHORCH" report --db "$db" --algo rot13 -o "$tmp/x.html" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unknown algorithm 'rot13'" "$tmp/err" && [ ! -e "$tmp/x.html" ]
ok $? "an algorithm the guest does not know is a usage error (exit 2)"
"$BENCHORCH" report --db "$db" >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "-o is required"
"$BENCHORCH" report --db "$db" -o "$tmp/r.txt" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "cannot tell the format of '$tmp/r.txt'" "$tmp/err" && [ ! -e "$tmp/r.txt" ]
ok $? "-o FILE.txt is refused, not filled with HTML (exit 2)"
"$BENCHORCH" report --db "$db" -o '' 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^benchorch report: -o needs a file name" "$tmp/err"
ok $? "-o '' is a usage error"
"$BENCHORCH" report --db "$db" --algo sha-256 -o "$tmp/upper.SVG" 2>"$tmp/err" &&
	grep -q '^<svg ' "$tmp/upper.SVG" &&
	"$BENCHORCH" report --db "$db" -o "$tmp/noext" 2>"$tmp/err" &&
	grep -q '^<!DOCTYPE html>' "$tmp/noext"
ok $? "-o FILE.SVG writes the chart, a name without extension HTML"

if command -v valgrind >/dev/null 2>&1; then
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$BENCHORCH" report --db "$db" --run 1 --run 2 -o "$tmp/vg.html" 2>"$tmp/vg" &&
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$BENCHORCH" report --db "$db" -o "$tmp/vg.svg" 2>>"$tmp/vg"
	ok $? "report (html and svg) under valgrind: no memory error"
else
	skip_point "needs valgrind" "report (html and svg) under valgrind: no memory error"
fi

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
	skip_point "needs chromium (scripts/deps.sh installs it)" "the report's charts as a browser lays them out"
	done_testing
	exit
fi
# The check runs inside the rendered page: a copy of the report with a
# script that reads every chart back from the DOM, with its layout.
cat >"$tmp/check.js" <<'JS'
var out = [];
document.querySelectorAll("svg.chart").forEach(function (svg) {
  var s = [];
  svg.querySelectorAll("g.series").forEach(function (g) {
    var p = g.querySelector("polyline"), b = p.getBBox();
    s.push(g.getAttribute("data-label") + "=" + p.points.numberOfItems +
           (b.width > 300 && b.height > 0 ? "" : "(flat)"));
  });
  var legend = [].map.call(svg.querySelectorAll("g.legend text"),
                           function (t) { return t.textContent; });
  var xt = svg.querySelectorAll("g.xticks text");
  out.push("@" + "@CHART " + svg.getAttribute("data-title") + " | x=" +
    svg.querySelector("text.xlabel").textContent + " | y=" +
    svg.querySelector("text.ylabel").textContent + " | ticks=" +
    xt[0].textContent + ".." + xt[xt.length - 1].textContent + " | " +
    s.join(";") + " | legend=" + legend.join(";") + " | width=" +
    Math.round(svg.getBoundingClientRect().width));
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
sed -n 's/.*@@CHART /CHART /p' "$tmp/dom" | sed 's/<\/pre>.*//' >"$tmp/charts"
sed 's/^/# /' "$tmp/charts" | cut -c1-200
[ "$(wc -l <"$tmp/charts")" -eq 3 ]
ok $? "the page shows three charts"
series="libgcrypt, debian:bookworm=9;libgcrypt, ubuntu:noble=9;nettle, debian:bookworm=9;nettle, ubuntu:noble=9;openssl, debian:bookworm=9;openssl, ubuntu:noble=9"
legend="libgcrypt, debian:bookworm;libgcrypt, ubuntu:noble;nettle, debian:bookworm;nettle, ubuntu:noble;openssl, debian:bookworm;openssl, ubuntu:noble"
for c in "aes-256-gcm encrypt" "aes-256-gcm decrypt" "sha-256 hash"; do
	grep -qF "CHART $c | x=buffer size (log scale) | y=throughput (MB/s, 10^6 B/s) | ticks=16 B..1 MiB | $series | legend=$legend | width=" "$tmp/charts"
	ok $? "$c: six series of nine points drawn across the plot, legend, axis labels, 16 B..1 MiB"
done
# One colour per library in every chart, whatever else a chart holds:
# without libgcrypt's aes-256-gcm decryption, nettle is the first line of
# that chart and the second of the encryption chart, in one colour, the
# legend's; libgcrypt and openssl keep theirs in the other charts.
cp "$db" "$tmp/gap.db" &&
	sqlite3 "$tmp/gap.db" "pragma foreign_keys = on; delete from results where
	algorithm = 'aes-256-gcm' and operation = 'decrypt' and library_id in
	(select id from libraries where name = 'libgcrypt')" &&
	"$BENCHORCH" report --db "$tmp/gap.db" -o "$tmp/gap.html" 2>"$tmp/err"
ok $? "a report without libgcrypt's aes-256-gcm decryption"
cat >"$tmp/colours.js" <<'JS'
var out = [];
document.querySelectorAll("svg.chart").forEach(function (svg) {
  svg.querySelectorAll("g.series").forEach(function (g) {
    out.push("@" + "@LINE " + svg.getAttribute("data-title") + " | " +
      g.getAttribute("data-label") + " | " +
      getComputedStyle(g.querySelector("polyline")).stroke);
  });
});
document.querySelectorAll("p.libcolours span.libcolour").forEach(function (s) {
  var w = s.querySelector("span.swatch"), b = w.getBoundingClientRect();
  out.push("@" + "@KEY " + s.getAttribute("data-library") + " | " +
    getComputedStyle(w).backgroundColor +
    (b.width > 0 && b.height > 0 ? "" : " (hidden)"));
});
var pre = document.createElement("pre");
pre.id = "check";
pre.textContent = out.join("\n");
document.body.appendChild(pre);
JS
python3 -c 'import sys; h, j = open(sys.argv[1]).read(), open(sys.argv[2]).read(); open(sys.argv[3], "w").write(h.replace("</body>", "<script>" + j + "</script></body>"))' \
	"$tmp/gap.html" "$tmp/colours.js" "$tmp/gapcheck.html"
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$tmp/profile" --dump-dom "file://$tmp/gapcheck.html" \
	>"$tmp/gapdom" 2>"$tmp/chromium.err"
ok $? "headless chromium renders it"
sed -n 's/.*@@\(LINE\|KEY\) /\1 /p' "$tmp/gapdom" | sed 's/<\/pre>.*//' >"$tmp/colours"
sed 's/^/# /' "$tmp/colours"
# colour CHART LABEL: the stroke the browser draws for that line;
# key LIBRARY: the legend's colour for it
colour() { sed -n "s/^LINE $1 | $2 | //p" "$tmp/colours"; }
key() { sed -n "s/^KEY $1 | //p" "$tmp/colours"; }
n_enc=$(colour "aes-256-gcm encrypt" "nettle, debian:bookworm")
n_dec=$(colour "aes-256-gcm decrypt" "nettle, debian:bookworm")
n_sha=$(colour "sha-256 hash" "nettle, ubuntu:noble")
first=$(sed -n 's/^LINE aes-256-gcm decrypt | \([^|]*\) |.*/\1/p' "$tmp/colours" | head -1)
[ "$first" = "nettle, debian:bookworm" ] && [ -n "$n_enc" ] &&
	[ "$n_enc" = "$n_dec" ] && [ "$n_dec" = "$n_sha" ] && [ "$(key nettle)" = "$n_enc" ]
ok $? "nettle: first line of aes-256-gcm decrypt, third elsewhere, one colour ($n_enc, $n_dec, $n_sha), the legend's ($(key nettle))"
g_enc=$(colour "aes-256-gcm encrypt" "libgcrypt, debian:bookworm")
g_sha=$(colour "sha-256 hash" "libgcrypt, ubuntu:noble")
o_dec=$(colour "aes-256-gcm decrypt" "openssl, debian:bookworm")
o_enc=$(colour "aes-256-gcm encrypt" "openssl, ubuntu:noble")
[ -n "$g_enc" ] && [ "$g_enc" = "$g_sha" ] && [ "$g_enc" = "$(key libgcrypt)" ] &&
	[ "$g_enc" != "$n_enc" ] && [ -n "$o_dec" ] && [ "$o_dec" = "$o_enc" ] &&
	[ "$o_dec" = "$(key openssl)" ] && [ "$o_dec" != "$g_enc" ] &&
	[ "$o_dec" != "$n_enc" ] && [ "$(grep -c '^KEY ' "$tmp/colours")" -eq 3 ] &&
	! grep -q '(hidden)' "$tmp/colours"
ok $? "libgcrypt ($g_enc) and openssl ($o_dec) keep theirs: three colours, and a visible legend of the three"

timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$tmp/profile" --window-size=1200,2600 \
	--screenshot="$top_builddir/tests/t7200-report.png" \
	"file://$tmp/report.html" >/dev/null 2>"$tmp/chromium.err"
[ -s "$top_builddir/tests/t7200-report.png" ]
ok $? "screenshot kept as tests/t7200-report.png in the build directory"

done_testing
