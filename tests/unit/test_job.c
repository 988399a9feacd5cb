/* Unit tests for runners/wire, runners/job and runners/session: framing, bounds-checked
 * decoding, the job, result and session encodings, default limits and work-dir path
 * validation. */
#include "runners/job.h"
#include "runners/session.h"
#include "runners/wire.h"
#include "test.h"

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

static void test_rbuf_bounds(void)
{
    struct buf b;
    buf_init(&b, 0);
    wbuf_u32(&b, 7);
    wbuf_str(&b, "hi");
    struct rbuf r;
    rbuf_init(&r, b.data, b.len);
    ASSERT_UINT_EQ(rbuf_u32(&r), 7);
    ASSERT_STR_EQ(rbuf_str(&r), "hi");
    ASSERT_INT_EQ(r.err, 0);
    ASSERT_UINT_EQ(rbuf_u64(&r), 0); /* past the end */
    ASSERT_INT_EQ(r.err, -EBADMSG);
    /* A length prefix larger than what follows. */
    struct buf c;
    buf_init(&c, 0);
    wbuf_u64(&c, 1000);
    wbuf_raw(&c, "abc", 3);
    rbuf_init(&r, c.data, c.len);
    size_t n = 99;
    ASSERT_NULL(rbuf_bytes(&r, &n));
    ASSERT_UINT_EQ(n, 0);
    ASSERT_INT_EQ(r.err, -EBADMSG);
    /* A string without its terminator, or with an embedded NUL. */
    struct buf d;
    buf_init(&d, 0);
    wbuf_bytes(&d, "ab", 2);
    wbuf_bytes(&d, "a\0b", 4);
    rbuf_init(&r, d.data, d.len);
    ASSERT_NULL(rbuf_str(&r));
    rbuf_init(&r, d.data + 10, d.len - 10);
    ASSERT_NULL(rbuf_str(&r));
    buf_fini(&b);
    buf_fini(&c);
    buf_fini(&d);
}

static void test_frames(void)
{
    int sv[2];
    ASSERT_INT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    ASSERT_INT_EQ(wire_send(sv[0], 42, "payload", 7), 0);
    ASSERT_INT_EQ(wire_send(sv[0], 43, NULL, 0), 0);
    uint32_t type;
    uint8_t *p;
    size_t len;
    ASSERT_INT_EQ(wire_recv(sv[1], &type, &p, &len, 100), 0);
    ASSERT_UINT_EQ(type, 42);
    ASSERT_UINT_EQ(len, 7);
    ASSERT_TRUE(memcmp(p, "payload", 7) == 0);
    free(p);
    ASSERT_INT_EQ(wire_recv(sv[1], &type, &p, &len, 100), 0);
    ASSERT_UINT_EQ(type, 43);
    ASSERT_NULL(p);
    /* Too long for the receiver's limit (the stream is then unusable: the peer is dropped). */
    ASSERT_INT_EQ(wire_send(sv[0], 1, "0123456789", 10), 0);
    ASSERT_INT_EQ(wire_recv(sv[1], &type, &p, &len, 5), -EBADMSG);
    close(sv[0]);
    close(sv[1]);
    /* Bad magic. */
    ASSERT_INT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    char junk[16] = "XXXXXXXXXXXXXXX";
    ASSERT_INT_EQ((int)write(sv[0], junk, 16), 16);
    ASSERT_INT_EQ(wire_recv(sv[1], &type, &p, &len, 100), -EBADMSG);
    /* EOF mid-header, then EOF at a frame boundary. */
    ASSERT_INT_EQ((int)write(sv[0], junk, 5), 5);
    close(sv[0]);
    ASSERT_INT_EQ(wire_recv(sv[1], &type, &p, &len, 100), -EPIPE);
    ASSERT_INT_EQ(wire_recv(sv[1], &type, &p, &len, 100), -ECONNRESET);
    close(sv[1]);
}

static void test_job_roundtrip(void)
{
    const char *argv[] = {"./a.out", "x y", NULL};
    const char *env[] = {"A=1", NULL};
    const char *fetch[] = {"out.txt", NULL};
    const char *grader[] = {"/usr/bin/python3", "-c", "g", NULL};
    struct job_file files[] = {{"a.out", 0755,
                                (const uint8_t *)"\x7f"
                                                 "ELF\0\1",
                                6},
                               {"dir/in.txt", 0644, (const uint8_t *)"", 0}};
    struct job j = {.argc = 2,
                    .argv = argv,
                    .nenv = 1,
                    .env = env,
                    .nfiles = 2,
                    .files = files,
                    .stdin_data = (const uint8_t *)"in\0put",
                    .stdin_len = 6,
                    .nfetch = 1,
                    .fetch = fetch,
                    .limits = {.cpu_ms = 1500, .memory_bytes = 1 << 20, .pids = 9},
                    .grader_argc = 3,
                    .grader_argv = grader};
    struct buf b;
    buf_init(&b, 0);
    job_encode(&j, &b);
    ASSERT_INT_EQ(b.err, 0);
    struct rbuf r;
    struct job d;
    rbuf_init(&r, b.data, b.len);
    ASSERT_INT_EQ(job_decode(&r, &d), 0);
    ASSERT_INT_EQ(d.argc, 2);
    ASSERT_STR_EQ(d.argv[1], "x y");
    ASSERT_NULL(d.argv[2]); /* NULL-terminated for execve */
    ASSERT_STR_EQ(d.env[0], "A=1");
    ASSERT_NULL(d.env[1]);
    ASSERT_INT_EQ(d.nfiles, 2);
    ASSERT_STR_EQ(d.files[1].path, "dir/in.txt");
    ASSERT_UINT_EQ(d.files[0].mode, 0755);
    ASSERT_UINT_EQ(d.files[0].len, 6);
    ASSERT_TRUE(memcmp(d.files[0].data,
                       "\x7f"
                       "ELF\0\1",
                       6) == 0);
    ASSERT_UINT_EQ(d.stdin_len, 6);
    ASSERT_STR_EQ(d.fetch[0], "out.txt");
    ASSERT_INT_EQ(d.limits.cpu_ms, 1500);
    ASSERT_UINT_EQ(d.limits.pids, 9);
    ASSERT_INT_EQ(d.grader_argc, 3);
    ASSERT_STR_EQ(d.grader_argv[2], "g");
    ASSERT_NULL(d.grader_argv[3]); /* NULL-terminated for execve */
    job_decoded_fini(&d);
    /* Every truncation of a valid job is rejected, never read past. */
    for (size_t cut = 0; cut < b.len; cut++) {
        rbuf_init(&r, b.data, cut);
        ASSERT_TRUE(job_decode(&r, &d) < 0);
    }
    buf_fini(&b);
}

static void test_result_roundtrip(void)
{
    struct job_fetched f[] = {{"out.txt", 0, (const uint8_t *)"data", 4},
                              {"link", -ELOOP, NULL, 0}};
    struct job_result res = {.status = JOB_TLE,
                             .tle_clock = JOB_CLOCK_WALL,
                             .exit_code = -1,
                             .signal = 9,
                             .cpu_ms = 12,
                             .wall_ms = 3001,
                             .memory_kib = 2048,
                             .instructions = 123456789012,
                             .stdout_truncated = true,
                             .out = (const uint8_t *)"o\0k",
                             .out_len = 3,
                             .err = (const uint8_t *)"",
                             .err_len = 0,
                             .nfetched = 2,
                             .fetched = f};
    snprintf(res.message, sizeof(res.message), "wall time limit exceeded");
    struct buf b;
    buf_init(&b, 0);
    result_encode(&res, &b);
    struct rbuf r;
    struct job_result d;
    rbuf_init(&r, b.data, b.len);
    ASSERT_INT_EQ(result_decode(&r, &d), 0);
    ASSERT_INT_EQ(d.status, JOB_TLE);
    ASSERT_INT_EQ(d.tle_clock, JOB_CLOCK_WALL);
    ASSERT_INT_EQ(d.exit_code, -1);
    ASSERT_INT_EQ(d.signal, 9);
    ASSERT_INT_EQ(d.wall_ms, 3001);
    ASSERT_UINT_EQ(d.memory_kib, 2048);
    ASSERT_INT_EQ(d.instructions, 123456789012);
    ASSERT_TRUE(d.stdout_truncated);
    ASSERT_FALSE(d.stderr_truncated);
    ASSERT_UINT_EQ(d.out_len, 3);
    ASSERT_TRUE(memcmp(d.out, "o\0k", 3) == 0);
    ASSERT_STR_EQ(d.message, "wall time limit exceeded");
    ASSERT_INT_EQ(d.nfetched, 2);
    ASSERT_INT_EQ(d.fetched[1].error, -ELOOP);
    ASSERT_UINT_EQ(d.fetched[0].len, 4);
    job_result_fini(&d);
    for (size_t cut = 0; cut < b.len; cut++) {
        rbuf_init(&r, b.data, cut);
        ASSERT_TRUE(result_decode(&r, &d) < 0);
    }
    buf_fini(&b);
}

static void test_session_roundtrip(void)
{
    struct session_limits l = {.memory_bytes = 64u << 20, .pids = 32, .cpu_ms = 1500}, l2;
    struct buf b;
    struct rbuf r;
    buf_init(&b, 0);
    session_limits_encode(&l, &b);
    rbuf_init(&r, b.data, b.len);
    ASSERT_INT_EQ(session_limits_decode(&r, &l2), 0);
    ASSERT_UINT_EQ(l2.memory_bytes, 64u << 20);
    ASSERT_UINT_EQ(l2.pids, 32);
    ASSERT_INT_EQ(l2.cpu_ms, 1500);
    buf_fini(&b);
    struct session_limits zero = {0};
    buf_init(&b, 0);
    session_limits_encode(&zero, &b);
    rbuf_init(&r, b.data, b.len);
    ASSERT_INT_EQ(session_limits_decode(&r, &l2), -EBADMSG); /* no limit is not a session */
    buf_fini(&b);

    const char *argv[] = {"/usr/bin/python3", "-I", "-c", "pass", "--session", NULL};
    struct job j = {.argc = 5, .argv = argv, .stdin_data = (const uint8_t *)"{}", .stdin_len = 2};
    job_limits_defaults(&j.limits);
    buf_init(&b, 0);
    session_call_encode(SESSION_CALL, &j, &b);
    enum session_mode mode;
    struct job d;
    rbuf_init(&r, b.data, b.len);
    ASSERT_INT_EQ(session_call_decode(&r, &mode, &d), 0);
    ASSERT_INT_EQ(mode, SESSION_CALL);
    ASSERT_INT_EQ(d.argc, 5);
    ASSERT_STR_EQ(d.argv[4], "--session");
    ASSERT_UINT_EQ(d.stdin_len, 2);
    job_decoded_fini(&d);
    b.data[0] = 7; /* not a mode */
    rbuf_init(&r, b.data, b.len);
    ASSERT_INT_EQ(session_call_decode(&r, &mode, &d), -EBADMSG);
    buf_fini(&b);

    struct session_result s = {.res = {.status = JOB_TLE, .tle_clock = JOB_CLOCK_SESSION},
                               .reply = (const uint8_t *)"{\"done\": true}",
                               .reply_len = 14,
                               .started = true,
                               .lost = true,
                               .totals = {.cpu_ms = 1501,
                                          .memory_kib = 10,
                                          .memory_peak_kib = 20,
                                          .starts = 2,
                                          .alive = false,
                                          .cpu_spent = true}};
    struct session_result sd;
    buf_init(&b, 0);
    session_result_encode(&s, &b);
    rbuf_init(&r, b.data, b.len);
    ASSERT_INT_EQ(session_result_decode(&r, &sd), 0);
    ASSERT_INT_EQ(sd.res.status, JOB_TLE);
    ASSERT_STR_EQ(job_clock_name(sd.res.tle_clock), "session_cpu");
    ASSERT_UINT_EQ(sd.reply_len, 14);
    ASSERT_TRUE(memcmp(sd.reply, "{\"done\": true}", 14) == 0);
    ASSERT_TRUE(sd.started && sd.lost && sd.totals.cpu_spent && !sd.totals.alive);
    ASSERT_INT_EQ(sd.totals.cpu_ms, 1501);
    ASSERT_UINT_EQ(sd.totals.starts, 2);
    job_result_fini(&sd.res);
    for (size_t cut = 0; cut < b.len; cut++) {
        rbuf_init(&r, b.data, cut);
        ASSERT_TRUE(session_result_decode(&r, &sd) < 0);
    }
    buf_fini(&b);
}

static void test_defaults(void)
{
    struct job_limits l = {.cpu_ms = 1000, .memory_bytes = 64 << 20};
    job_limits_defaults(&l);
    ASSERT_INT_EQ(l.wall_ms, 4000);
    ASSERT_INT_EQ(l.backstop_ms, 12000);
    ASSERT_UINT_EQ(l.stack_bytes, 64 << 20);
    ASSERT_UINT_EQ(l.pids, 64);
    ASSERT_UINT_EQ(l.nofile, 256);
    ASSERT_STR_EQ(job_status_name(JOB_MLE), "MLE");
    ASSERT_STR_EQ(job_status_name((enum job_status)99), "?");
    ASSERT_STR_EQ(job_clock_name(JOB_CLOCK_CPU), "cpu");
    ASSERT_STR_EQ(job_clock_name(JOB_CLOCK_WALL), "wall");
    ASSERT_STR_EQ(job_clock_name(JOB_CLOCK_INSTRUCTIONS), "instructions");
    ASSERT_NULL(job_clock_name(JOB_CLOCK_NONE));
    ASSERT_NULL(job_clock_name((enum job_clock)99));
}

/* What cannot travel to a cell is refused with the reason, not cut short
 * (job_decode would refuse more than JOB_MAX_ARGS entries only after the cell received it). */
static void test_check(void)
{
    char err[ERR_LEN] = "";
    const char *argv[] = {"/bin/true", NULL};
    struct job j = {.argc = 1, .argv = argv};
    ASSERT_INT_EQ(job_check(&j, err), 0);
    j.argc = 0;
    ASSERT_INT_EQ(job_check(&j, err), -EINVAL);
    j.argc = 2; /* argv[1] is NULL */
    ASSERT_INT_EQ(job_check(&j, err), -EINVAL);
    ASSERT_STR_CONTAINS(err, "argv entry 1");
    j.argc = JOB_MAX_ARGS + 1;
    ASSERT_INT_EQ(job_check(&j, err), -E2BIG);
    ASSERT_STR_CONTAINS(err, "at most");
    j.argc = 1;
    j.nfetch = JOB_MAX_FILES + 1;
    ASSERT_INT_EQ(job_check(&j, err), -E2BIG);
    j.nfetch = 0;
    struct job_file f = {.path = NULL};
    j.nfiles = 1;
    j.files = &f;
    ASSERT_INT_EQ(job_check(&j, err), -EINVAL);
}

static void test_paths(void)
{
    ASSERT_TRUE(job_path_ok("main.c"));
    ASSERT_TRUE(job_path_ok("src/pkg/x.go"));
    ASSERT_TRUE(job_path_ok(".hidden"));
    ASSERT_TRUE(job_path_ok("a..b"));
    ASSERT_FALSE(job_path_ok(""));
    ASSERT_FALSE(job_path_ok(NULL));
    ASSERT_FALSE(job_path_ok("/etc/passwd"));
    ASSERT_FALSE(job_path_ok("../x"));
    ASSERT_FALSE(job_path_ok("a/../../x"));
    ASSERT_FALSE(job_path_ok("a/./b"));
    ASSERT_FALSE(job_path_ok("."));
    ASSERT_FALSE(job_path_ok("a//b"));
    ASSERT_FALSE(job_path_ok("dir/"));
    char longp[300];
    memset(longp, 'a', sizeof(longp) - 1);
    longp[sizeof(longp) - 1] = '\0';
    ASSERT_FALSE(job_path_ok(longp));
}

int main(void)
{
    TEST_RUN(test_rbuf_bounds);
    TEST_RUN(test_frames);
    TEST_RUN(test_job_roundtrip);
    TEST_RUN(test_result_roundtrip);
    TEST_RUN(test_session_roundtrip);
    TEST_RUN(test_defaults);
    TEST_RUN(test_paths);
    TEST_RUN(test_check);
    return TEST_EXIT();
}
