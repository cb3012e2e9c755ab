#!/bin/sh
# t3180-run-tools - `run --tools` on the cached Debian image: the image's
# own openssl (and gpg and age where the image has them) encrypt and
# decrypt a 4 MiB file in the container's tmpfs, hw and nohw; verified
# rows with their samples and package version are stored, a tool the
# rootfs lacks is stored absent, and a round trip that does not restore
# the file (a copy of the image whose openssl corrupts what it decrypts)
# is refused: no figures, no samples, exit status 1.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
require_test_image

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/results.db"
rootfs="$TEST_IMAGE/rootfs"
q() { sqlite3 -batch -noheader "$db" "$1"; }

"$BENCHORCH" run --tools --tool-size 4 --tool-reps 3 --distros debian \
	--runner nspawn --state-dir "$TEST_STATE" --db "$db" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "run --tools --tool-size 4 --tool-reps 3 exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"

[ "$(q "select count(*) from tool_results_v where tool = 'openssl' and status = 'measured' and bytes = 4194304 and repetitions = 3 and kept = 3")" -eq 8 ]
ok $? "openssl: aes-256-cbc and chacha20, encrypt and decrypt, hw and nohw: 8 measured rows of 4 MiB, 3 samples each, all kept"
[ "$(q "select count(*) from tool_samples where tool = 'openssl' and wall_ns > 0 and max_rss_kib > 0")" -eq 24 ]
ok $? "their 24 raw samples are stored"
ver=$(dpkg-query --admindir="$rootfs/var/lib/dpkg" -W -f '${Version}' openssl)
[ -n "$ver" ] &&
[ "$(q "select count(*) from tool_results_v where tool = 'openssl' and package = 'openssl' and package_version = '$ver' and tool_version like 'OpenSSL 3.%'")" -eq 8 ]
ok $? "with the rootfs's openssl package version ($ver) and the tool's own version line"
# the summary is the samples' mean (3 samples: none trimmed) and MB/s
# is bytes over that wall time
[ "$(q "select count(*) from tool_results t where tool = 'openssl' and abs(wall_ns - (select avg(wall_ns) from tool_samples s where s.invocation_id = t.invocation_id and s.tool = t.tool and s.cipher = t.cipher and s.direction = t.direction and s.variant = t.variant)) <= 1 and abs(mb_per_s - bytes * 1000.0 / wall_ns) < 0.001 and abs(cpu_ns - user_ns - sys_ns) <= 1")" -eq 8 ]
ok $? "wall_ns is the mean of the samples, mb_per_s = bytes / wall time, cpu_ns = user + sys"
for t in gpg age; do
	if [ -x "$rootfs/usr/bin/$t" ]; then want=measured; else want=absent; fi
	[ "$(q "select count(*) from tool_results_v where tool = '$t' and status = '$want'")" -eq 4 ] &&
	[ "$(q "select count(*) from tool_results_v where tool = '$t' and status <> '$want'")" -eq 0 ]
	ok $? "$t is $want in the image: 4 rows (2 directions x hw/nohw) say so"
done
[ "$(q "select count(*) from tool_results_v where status = 'absent' and (wall_ns is not null or mb_per_s is not null)")" -eq 0 ] &&
[ "$(q "select count(*) from tool_samples s join tool_results t using (invocation_id, tool, cipher, direction, variant) where t.status <> 'measured'")" -eq 0 ]
ok $? "absent rows have no figures and no samples"
[ "$(q "select r.status || ' ' || i.algorithms from runs r join invocations i on i.run_id = r.id")" = "done tools" ]
ok $? "the run is stored done, its invocation marked as the tool mode's"
head -1 "$tmp/out" | grep -Eq '^run +distro +tool +cipher +direction +variant +version +status +mb_per_s +cpu_s +wall_s +rss_mib +samples$' &&
[ "$(grep -c ' openssl .* measured ' "$tmp/out")" -eq 8 ]
ok $? "the run prints the table of its tool results on stdout"
"$BENCHORCH" results --tools --db "$db" --format csv >"$tmp/csv" 2>"$tmp/err2"
[ $? -eq 0 ] && [ "$(wc -l <"$tmp/csv")" -eq 17 ] &&
head -1 "$tmp/csv" | grep -q '^run_id,spec,distro,release,tool,cipher,direction,variant,status,'
ok $? "results --tools --format csv prints the 16 rows and a header"
# no matching row: the table prints nothing, csv its header, json [];
# exit 1 with the reason on stderr (as results' point table)
"$BENCHORCH" results --tools --db "$db" --distro ubuntu >"$tmp/none" 2>"$tmp/err3"
[ $? -eq 1 ] && [ ! -s "$tmp/none" ] && grep -q "no matching tool results" "$tmp/err3" &&
	"$BENCHORCH" results --tools --db "$db" --distro ubuntu --format csv 2>/dev/null |
	tr -d '\r' | grep -c . | grep -qx 1 &&
	[ "$("$BENCHORCH" results --tools --db "$db" --distro ubuntu --format json 2>/dev/null | tr -d ' \n')" = "[]" ]
ok $? "results --tools with no match: the table prints nothing, csv its header, json [], exit 1"
"$BENCHORCH" results --tools --db "$db" --lib openssl >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "results --tools --lib is a usage error"
[ -z "$(mounts_under "$rootfs")" ] && [ -z "$(stray_guests)" ]
ok $? "nothing stays mounted in the image, no process is left behind"

# merge and export carry the tool results; the report shows them
"$top_builddir/tests/fixtures/results-mkdb" "$tmp/lib.db" &&
"$BENCHORCH" report --db "$tmp/lib.db" -o "$tmp/before.html" 2>/dev/null &&
! grep -q 'id="tools"' "$tmp/before.html"
ok $? "a report of a database without tool results has no tools section"
"$BENCHORCH" merge --db "$tmp/lib.db" "$db" >/dev/null 2>&1 &&
"$BENCHORCH" export --db "$db" -o "$tmp/export.db" 2>/dev/null &&
[ "$(sqlite3 -batch -noheader "$tmp/lib.db" "select count(*) from tool_results")" -eq 16 ] &&
[ "$(sqlite3 -batch -noheader "$tmp/lib.db" "select count(*) from tool_samples")" -eq "$(q "select count(*) from tool_samples")" ] &&
[ "$(sqlite3 -batch -noheader "$tmp/export.db" "select count(*) from tool_samples")" -eq "$(q "select count(*) from tool_samples")" ]
ok $? "merge and export carry the 16 tool results and their samples"
# (in the merged database, the tool run is the one with tool results)
tr=$(sqlite3 -batch -noheader "$tmp/lib.db" "select distinct i.run_id from invocations i join tool_results t on t.invocation_id = i.id")
# compare and report take library runs: a tool run is refused before
# anything is printed, naming the command that shows it
"$BENCHORCH" compare --db "$tmp/lib.db" 3 "$tr" >"$tmp/cmp" 2>"$tmp/cmperr"
rc=$?
"$BENCHORCH" report --db "$tmp/lib.db" --run "$tr" -o "$tmp/tool.html" 2>"$tmp/reperr"
rc2=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/cmp" ] && [ $rc2 -eq 2 ] && [ ! -e "$tmp/tool.html" ] &&
	grep -q "^benchorch compare: run $tr is a tool run (run --tools): compare takes library runs ('benchorch results --tools --run $tr' shows it)$" "$tmp/cmperr" &&
	grep -q "^benchorch report: run $tr is a tool run" "$tmp/reperr"
ok $? "compare and report of a tool run: exit 2, nothing printed ($rc, $rc2: $(head -1 "$tmp/cmperr"))"
"$BENCHORCH" report --db "$tmp/lib.db" -o "$tmp/after.html" 2>/dev/null &&
[ "$(sed -n '/<section id="tools">/,/<\/section>/p' "$tmp/after.html" | grep -c '<tr><td>debian</td><td>openssl</td>')" -eq 4 ]
ok $? "the report then has a tools section: openssl's 2 ciphers x hw/nohw, encrypt and decrypt side by side"

# The same under chroot: /run is a tmpfs there too.
"$BENCHORCH" run --tools --tool-size 4 --tool-reps 2 --distros debian \
	--runner chroot --state-dir "$TEST_STATE" --db "$db" \
	>/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ "$(q "select count(*) from tool_results_v where run_id = 2 and tool = 'openssl' and status = 'measured' and kept = 2")" -eq 8 ]
ok $? "under --runner chroot too (rc $rc)"
[ -z "$(mounts_under "$rootfs")" ] && [ -z "$(stray_guests)" ]
ok $? "and nothing stays mounted or running after it"

# A copy of the image whose openssl corrupts one byte of what it
# decrypts: the round trip differs, so nothing of openssl is stored.
state="$tmp/state"
mkdir -p "$state/images"
cp -a "$TEST_IMAGE" "$state/images/"
copy="$state/images/debian-bookworm/rootfs"
mv "$copy/usr/bin/openssl" "$copy/usr/bin/openssl.real"
cat >"$copy/usr/bin/openssl" <<'SH'
#!/bin/sh
/usr/bin/openssl.real "$@" || exit $?
case " $* " in *" -d "*) ;; *) exit 0 ;; esac
prev= out=
for a in "$@"; do [ "$prev" = -out ] && out=$a; prev=$a; done
printf 'X' | dd of="$out" bs=1 seek=1000 conv=notrunc 2>/dev/null
SH
chmod 755 "$copy/usr/bin/openssl"
rm -f "$copy/usr/bin/gpg" "$copy/usr/bin/age"
"$BENCHORCH" run --tools --tool-size 4 --tool-reps 2 --distros debian \
	--runner nspawn --state-dir "$state" --db "$db" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ]
ok $? "a corrupted round trip makes the run exit 1 (rc $rc)"
[ "$(q "select count(*) from tool_results_v where run_id = 3 and tool = 'openssl' and status = 'failed' and error like '%round trip differs%' and wall_ns is null and mb_per_s is null")" -eq 8 ] &&
[ "$(q "select count(*) from tool_results_v where run_id = 3 and status = 'measured'")" -eq 0 ] &&
[ "$(q "select count(*) from tool_samples s join invocations i on i.id = s.invocation_id where i.run_id = 3")" -eq 0 ]
ok $? "its openssl rows are stored failed, with why, and no figures or samples"
grep -q "openssl aes-256-cbc decrypt hw NOT stored: round trip differs" "$tmp/err"
ok $? "stderr says which measurement was not stored and why"
[ "$(q "select count(*) from tool_results_v where run_id = 3 and tool in ('gpg', 'age') and status = 'absent'")" -eq 8 ]
ok $? "gpg and age, removed from the copy, are absent"
"$BENCHORCH" results --tools --run 3 --db "$db" >"$tmp/t3" 2>"$tmp/err" &&
	grep -E ' gpg .* absent ' "$tmp/t3" >"$tmp/absent" &&
	[ -s "$tmp/absent" ] && ! grep -q '0\.000' "$tmp/absent" &&
	grep -E ' openssl .* failed ' "$tmp/t3" >"$tmp/failed" &&
	! grep -q '0\.000' "$tmp/failed"
ok $? "results --tools leaves the figures of absent and failed rows blank"
done_testing
