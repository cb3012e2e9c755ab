/* t6000-daemon-config - benchorch.conf(5) parsing, schedule arithmetic,
 * the persisted last-run times and the control protocol's checks, without
 * a daemon. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "orchestrator/daemon/config-file.h"
#include "orchestrator/daemon/control.h"
#include "orchestrator/daemon/daemon.h"
#include "orchestrator/daemon/daemon-job.h"
#include "orchestrator/daemon/schedule.h"
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
	bad_conf("schedule x every day at 25:00 distros debian\n", "hour 25 out of range");
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

/* The package changes the job's child reports down its pipe: the total,
 * the first DAEMON_STATUS_CHANGES, NULL versions kept, and the status
 * reply built from them. */
static void test_changes_pipe(void)
{
	struct pkg_change v[7];
	struct daemon_changes dc = { .total = -1 };
	char buf[4096], *line, *save = NULL, names[7][16];
	json_t *o = json_object(), *a;
	size_t i, lines = 0;
	ssize_t got;
	bo_err err;
	int p[2];

	for (i = 0; i < 7; i++) {
		snprintf(names[i], sizeof(names[i]), "pkg%zu", i);
		v[i] = (struct pkg_change){ .spec = "debian:bookworm",
			.package = names[i], .old_version = "1.0",
			.new_version = "1.1" };
	}
	v[0].old_version = NULL;
	v[1].new_version = NULL;
	if (pipe(p) < 0) {
		tap_skip(4, "no pipe");
		json_decref(o);
		return;
	}
	tap_ok(daemon_changes_send(p[1], v, 7, &err) == 0,
	       "the child sends 7 changes");
	close(p[1]);
	got = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	buf[got > 0 ? got : 0] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		lines += (size_t)daemon_changes_parse(&dc, line);
	tap_ok(lines == 1 + DAEMON_STATUS_CHANGES && dc.total == 7 &&
	       dc.nshown == DAEMON_STATUS_CHANGES,
	       "the daemon keeps the total (%ld) and the first %d of them",
	       dc.total, DAEMON_STATUS_CHANGES);
	tap_ok(dc.nshown > 2 && !dc.shown[0].old_version &&
	       strcmp(dc.shown[0].new_version, "1.1") == 0 &&
	       !dc.shown[1].new_version &&
	       strcmp(dc.shown[2].spec, "debian:bookworm") == 0 &&
	       strcmp(dc.shown[2].package, "pkg2") == 0,
	       "a new package and a removed one keep their missing version");
	tap_ok(daemon_changes_parse(&dc, "P 1 0 1 u -") == 0 &&
	       daemon_changes_parse(&dc, "C 7x") == 0,
	       "other lines are left to the progress parser");
	daemon_changes_json(&dc, o);
	a = json_object_get(o, "changed_packages");
	tap_ok(json_integer_value(json_object_get(o, "package_changes")) == 7 &&
	       json_array_size(a) == DAEMON_STATUS_CHANGES &&
	       json_is_null(json_object_get(json_array_get(a, 0), "old_version")) &&
	       strcmp(json_string_value(json_object_get(json_array_get(a, 2),
							"package")), "pkg2") == 0,
	       "the status reply: the total and the changes kept");
	json_decref(o);
	daemon_changes_reset(&dc);
	tap_ok(dc.total == -1 && dc.nshown == 0 && !dc.shown,
	       "reset: nothing reported");
}

/* The job as the daemon's log lines name it: every setting said. */
static void test_describe(void)
{
	struct daemon_job j = { .distros = "debian", .libs = "openssl",
				.quick = 1 };
	char b[128];

	tap_ok(strcmp(daemon_job_describe(&j, b, sizeof(b)),
		      "distros debian, libs openssl, quick") == 0,
	       "a job's log line says quick (%s)", b);
	j.libs = NULL;
	j.quick = 0;
	j.refresh = 1;
	tap_ok(strcmp(daemon_job_describe(&j, b, sizeof(b)),
		      "distros debian, refresh") == 0,
	       "and refresh, and no libs for every library (%s)", b);
}

int main(void)
{
	test_describe();
	test_changes_pipe();
	test_conf();
	test_schedule();
	test_control();
	return tap_done();
}
