/* t6000-daemon-config - benchorch.conf(5) parsing, schedule arithmetic,
 * the persisted last-run times and the control protocol's checks, without
 * a daemon. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "orchestrator/config-file.h"
#include "orchestrator/control.h"
#include "orchestrator/daemon.h"
#include "db/db.h"
#include "orchestrator/schedule.h"
#include "tests/tap.h"

static struct conf *parse(const char *text, bo_err *err)
{
	struct conf *c = NULL;

	if (conf_parse("test.conf", text, strlen(text), &c, err) < 0)
		return NULL;
	return c;
}

static void bad_conf(const char *text, const char *want)
{
	bo_err err;
	struct conf *c = parse(text, &err);

	tap_ok(!c && tap_contains(err.msg, want),
	       "refused: %s", c ? "(accepted)" : err.msg);
	conf_free(c);
}

static void test_conf(void)
{
	bo_err err;
	struct conf *c;
	char *out = NULL;
	size_t outlen = 0;
	FILE *f;
	struct conf *again;

	c = parse("# comment\n\n  state-dir /srv/bo   # trailing\n"
		  "schedule nightly every day at 03:00 distros debian,ubuntu:noble libs all\n"
		  "schedule often every 6h distros debian quick no-refresh\n"
		  "runner chroot\ntimeout 10m\n", &err);
	tap_ok(c != NULL, "a valid file parses%s%s", c ? "" : ": ",
	       c ? "" : err.msg);
	if (!c) {
		tap_skip(6, "no configuration");
		return;
	}
	tap_ok(strcmp(c->state_dir, "/srv/bo") == 0 &&
	       strcmp(c->db_path, "/srv/bo/results.db") == 0 &&
	       strcmp(c->socket_path, "/srv/bo/control.sock") == 0,
	       "database and socket default to the state directory");
	tap_ok(c->kind == RUNNER_CHROOT && c->timeout_s == 600,
	       "runner and timeout");
	tap_ok(c->nscheds == 2 && c->scheds[0].kind == SCHED_DAILY &&
	       c->scheds[0].hour == 3 && c->scheds[0].min == 0 &&
	       c->scheds[0].refresh == 1 && c->scheds[0].libs == NULL &&
	       strcmp(c->scheds[0].distros, "debian,ubuntu:noble") == 0,
	       "a daily schedule: 03:00, refresh by default, all libraries");
	tap_ok(c->scheds[1].kind == SCHED_INTERVAL &&
	       c->scheds[1].interval_s == 6 * 3600 && c->scheds[1].quick &&
	       !c->scheds[1].refresh, "an interval schedule: 6h, quick, no-refresh");
	f = open_memstream(&out, &outlen);
	conf_print(f, c);
	fclose(f);
	again = parse(out, &err);
	tap_ok(again && again->nscheds == 2 &&
	       again->scheds[1].interval_s == c->scheds[1].interval_s &&
	       strcmp(again->db_path, c->db_path) == 0,
	       "the normalised form parses back to the same configuration");
	if (again) {
		char *out2 = NULL;
		size_t len2 = 0;

		f = open_memstream(&out2, &len2);
		conf_print(f, again);
		fclose(f);
		tap_ok(strcmp(out, out2) == 0, "and prints identically");
		free(out2);
	} else {
		tap_skip(1, "did not parse back");
	}
	free(out);
	conf_free(again);
	conf_free(c);

	bad_conf("frobnicate yes\n", "line 1: unknown directive 'frobnicate'");
	bad_conf("state-dir relative/path\n", "absolute");
	bad_conf("schedule x every day at 25:00 distros debian\n", "HH:MM");
	bad_conf("schedule x every day at 3:0x distros debian\n", "HH:MM");
	bad_conf("schedule x every 0s distros debian\n", "bad time");
	bad_conf("schedule x every day at 03:00\n", "names no distros");
	bad_conf("schedule x every 1h distros Debian!\n", "schedule 'x'");
	bad_conf("schedule x every 1h distros debian\nschedule x every 2h distros debian\n",
		 "line 2: schedule 'x' is defined twice");
	bad_conf("schedule x every 1h distros debian sometimes\n",
		 "unknown word 'sometimes'");
	bad_conf("schedule bad/name every 1h distros debian\n", "schedule name");
	bad_conf("runner qemu\n", "qemu");
	bad_conf("timeout forever\n", "timeout");
	bad_conf("socket /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
		 "too long");
	{
		char big[CONF_MAX_LINE + 10];

		memset(big, 'x', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		bad_conf(big, "longer than");
	}
	c = conf_default(NULL);
	tap_ok(c->nscheds == 0 &&
	       strcmp(c->socket_path, "/var/lib/benchorch/control.sock") == 0,
	       "defaults: no schedule, socket in /var/lib/benchorch");
	conf_free(c);
}

static void test_schedule(void)
{
	struct sched daily = { .kind = SCHED_DAILY, .hour = 3 };
	struct sched every = { .kind = SCHED_INTERVAL, .interval_s = 90 };
	struct sched_times t = { 0 }, back;
	char path[] = "/tmp/t6000-XXXXXX";
	struct tm tm;
	time_t base, next;
	bo_err err;
	int fd;

	setenv("TZ", "UTC", 1);
	tzset();
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = 2026 - 1900;
	tm.tm_mon = 10;
	tm.tm_mday = 29;
	tm.tm_hour = 2;
	tm.tm_min = 59;
	base = timegm(&tm);
	next = sched_next(&daily, base);
	tap_ok(next == base + 60, "daily 03:00 after 02:59 is a minute later");
	tap_ok(sched_next(&daily, next) == next + 86400,
	       "and after 03:00 exactly, the next day");
	tap_ok(sched_next(&every, base) == base + 90, "an interval adds up");

	fd = mkstemp(path);
	close(fd);
	sched_times_set(&t, "nightly", 1700000000);
	sched_times_set(&t, "often", 1700000100);
	sched_times_set(&t, "nightly", 1700000200);
	tap_ok(sched_times_save(path, &t, &err) == 0, "last-run times saved");
	tap_ok(sched_times_load(path, &back, &err) == 0 && back.n == 2 &&
	       sched_times_get(&back, "nightly") == 1700000200 &&
	       sched_times_get(&back, "often") == 1700000100 &&
	       sched_times_get(&back, "never") == 0,
	       "and read back");
	sched_times_release(&back);
	sched_times_release(&t);
	{
		FILE *f = fopen(path, "w");

		fputs("nightly 12\ngarbage\n\nx y z\nokay 34\n", f);
		fclose(f);
	}
	tap_ok(sched_times_load(path, &back, &err) == 0 && back.n == 2 &&
	       sched_times_get(&back, "okay") == 34,
	       "a damaged file keeps its good lines");
	sched_times_release(&back);
	unlink(path);
	tap_ok(sched_times_load(path, &back, &err) == 0 && back.n == 0,
	       "a missing file is an empty set");
	sched_times_release(&back);
}

static void bad_req(const char *msg, size_t len, const char *want)
{
	struct control_req r;
	bo_err err;
	int rc = control_req_parse(msg, len, &r, &err);

	tap_ok(rc < 0 && tap_contains(err.msg, want),
	       "control refuses a message (%s): %s", want,
	       rc < 0 ? err.msg : "(accepted)");
	if (rc == 0)
		control_req_release(&r);
}

#define BAD(s, want) bad_req(s, strlen(s), want)

static void test_control(void)
{
	struct control_req r;
	bo_err err;
	char *big;
	const char *ok1 = "{\"version\":1,\"type\":\"submit\",\"distros\":\"debian,ubuntu:noble\",\"quick\":true,\"libs\":\"all\"}";
	json_t *m;
	char *enc;

	tap_ok(control_req_parse(ok1, strlen(ok1), &r, &err) == 0 &&
	       r.type == CONTROL_SUBMIT && r.quick && !r.refresh &&
	       r.libs == NULL && strcmp(r.distros, "debian,ubuntu:noble") == 0,
	       "a submit request decodes");
	control_req_release(&r);
	tap_ok(control_req_parse("{\"type\":\"status\",\"version\":1}", 29,
				 &r, &err) == 0 && r.type == CONTROL_STATUS,
	       "a status request decodes");
	control_req_release(&r);

	BAD("", "empty");
	BAD("garbage\n", "not JSON");
	BAD("\x01\x02\xff\xfe", "not JSON");
	BAD("[1,2,3]", "must be a JSON object");
	BAD("{\"type\":\"status\"}", "'version' must be an integer");
	BAD("{\"version\":\"1\",\"type\":\"status\"}", "'version' must be an integer");
	BAD("{\"version\":2,\"type\":\"status\"}", "version 2 is not supported");
	BAD("{\"version\":1}", "'type' must be a string");
	BAD("{\"version\":1,\"type\":7}", "'type' must be a string");
	BAD("{\"version\":1,\"type\":\"reboot\"}", "unknown message type 'reboot'");
	BAD("{\"version\":1,\"type\":\"submit\"}", "needs 'distros'");
	BAD("{\"version\":1,\"type\":\"submit\",\"distros\":[\"debian\"]}",
	    "'distros' must be a string");
	BAD("{\"version\":1,\"type\":\"submit\",\"distros\":\"\"}", "1 to");
	BAD("{\"version\":1,\"type\":\"submit\",\"distros\":\"a\\nb\"}",
	    "printable");
	BAD("{\"version\":1,\"type\":\"submit\",\"distros\":\"debian\",\"quick\":1}",
	    "'quick' must be true or false");
	BAD("{\"version\":1,\"type\":\"status\",\"extra\":1}",
	    "unexpected key 'extra'");
	BAD("{\"version\":1,\"version\":1,\"type\":\"status\"}", "not JSON");
	big = xmalloc(CONTROL_MAX_MSG + 100);
	memset(big, ' ', CONTROL_MAX_MSG + 100);
	memcpy(big, "{\"version\":1,\"type\":\"status\"}", 29);
	bad_req(big, CONTROL_MAX_MSG + 100, "exceeds");
	free(big);

	m = json_pack("{s:s}", "type", "status");
	enc = control_encode(m, &err);
	tap_ok(enc && control_req_parse(enc, strlen(enc), &r, &err) == 0 &&
	       r.type == CONTROL_STATUS, "control_encode adds the version");
	control_req_release(&r);
	free(enc);
	json_decref(m);
}

/* Three runs of debian:bookworm: run 1 on image 1, run 2 on image 2
 * (libssl3 updated, libfoo removed, libbar added), run 3 on image 2 again;
 * and one of alpine with no earlier run. */
static const char fixture_sql[] =
"INSERT INTO runs (id, uuid, host, pid, started_at, command_line, status) VALUES"
" (1, 'u1', 'h', 1, '2026-11-27T03:00:00Z', 'x', 'done'),"
" (2, 'u2', 'h', 1, '2026-11-28T03:00:00Z', 'x', 'done'),"
" (3, 'u3', 'h', 1, '2026-11-29T03:00:00Z', 'x', 'done');"
"INSERT INTO images (id, distro, release, digest) VALUES"
" (1, 'debian', 'bookworm', 'sha256:1'), (2, 'debian', 'bookworm', 'sha256:2'),"
" (3, 'alpine', '3.20', 'sha256:3');"
"INSERT INTO image_packages VALUES"
" (1, 'libc6', '2.36-9'), (1, 'libssl3', '3.0.11-1'), (1, 'libfoo', '1'),"
" (2, 'libc6', '2.36-9'), (2, 'libssl3', '3.0.13-1'), (2, 'libbar', '2'),"
" (3, 'musl', '1.2.5');"
"INSERT INTO invocations (run_id, image_id, spec, started_at, status) VALUES"
" (1, 1, 'debian', 'x', 'ok'), (2, 2, 'debian', 'x', 'ok'),"
" (2, 3, 'alpine', 'x', 'ok'), (3, 2, 'debian', 'x', 'ok');";

static void test_pkg_changes(void)
{
	char dir[] = "/tmp/t6000-db-XXXXXX", *path;
	struct pkg_change *v = NULL;
	sqlite3 *db;
	size_t n = 0;
	bo_err err;
	int rc;

	if (!mkdtemp(dir)) {
		tap_skip(4, "no temporary directory");
		return;
	}
	path = xasprintf("%s/results.db", dir);
	if (db_open(path, &db, &err) < 0 || db_exec(db, fixture_sql, &err) < 0) {
		tap_ok(0, "fixture database: %s", err.msg);
		free(path);
		return;
	}
	tap_ok(pkg_changes_since_previous(db, 1, &v, &n, &err) == 0 && n == 0,
	       "the first run of a distribution has nothing to compare");
	pkg_changes_free(v, n);
	rc = pkg_changes_since_previous(db, 2, &v, &n, &err);
	tap_ok(rc == 0 && n == 3 &&
	       strcmp(v[0].spec, "debian:bookworm") == 0 &&
	       strcmp(v[0].package, "libbar") == 0 && !v[0].old_version &&
	       strcmp(v[0].new_version, "2") == 0 &&
	       strcmp(v[1].package, "libfoo") == 0 && !v[1].new_version &&
	       strcmp(v[2].package, "libssl3") == 0 &&
	       strcmp(v[2].old_version, "3.0.11-1") == 0 &&
	       strcmp(v[2].new_version, "3.0.13-1") == 0,
	       "a new image: one update, one added, one removed (%zu changes)", n);
	pkg_changes_free(v, n);
	tap_ok(pkg_changes_since_previous(db, 3, &v, &n, &err) == 0 && n == 0,
	       "the same image as last time: no change");
	pkg_changes_free(v, n);
	tap_ok(pkg_changes_since_previous(db, 99, &v, &n, &err) == 0 && n == 0,
	       "an unknown run: no change");
	pkg_changes_free(v, n);
	sqlite3_close(db);
	bo_err_set(&err, "x");
	bo_rm_rf(dir, &err);
	free(path);
}

int main(void)
{
	test_pkg_changes();
	test_conf();
	test_schedule();
	test_control();
	return tap_done();
}
