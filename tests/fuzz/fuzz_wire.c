/*
 * fuzz_wire: the cell protocol (runners/wire.h, runners/job.h, runners/cell_internal.h) on
 * arbitrary bytes, both ways. The first byte picks what the rest is:
 *   0  a CELL_JOB payload, as a privileged cell decodes it from a compromised server (job_decode);
 *   1  a CELL_RESULT payload, as the server decodes it from a compromised cell (result_decode);
 *   2  a CELL_CONFIG payload, as a cell decodes its configuration (cell_decode_config);
 *   3  a byte stream on the cell's socket (a socketpair), read frame by frame with wire_recv
 *      under a max_len the second byte picks, each frame's payload then decoded as its type
 *      says (the others here), as the cell's and the server's loops do;
 *   4  a CELL_SESSION_CALL payload, as a cell decodes it (session_call_decode);
 *   5  a CELL_SESSION_RESULT payload, as the server decodes it (session_result_decode);
 *   6  a CELL_SESSION_OPEN payload (session_limits_decode).
 *
 * Invariants: a decoded message re-encodes to bytes that decode to the same message (a job's and
 * a configuration's encoding is canonical: the very bytes that were read); a decoded job passes
 * job_check (it can be sent on); a result's status and clock are named values; a configuration's
 * counts, cgroup version and GPU are in range. wire_recv returns a payload only of at most
 * max_len bytes, exactly the frame's, and otherwise nothing with -ECONNRESET (no bytes),
 * -EPIPE (cut short) or -EBADMSG (bad magic, too long); a frame sent with wire_send is received
 * unchanged.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "runners/cell_internal.h"
#include "runners/job.h"
#include "runners/session.h"
#include "runners/wire.h"

static void same_strs(int n, const char *const *a, int m, const char *const *b)
{
    FUZZ_CHECK(n == m);
    for (int i = 0; i < n; i++)
        FUZZ_CHECK(strcmp(a[i], b[i]) == 0);
}

static void same_bytes(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    FUZZ_CHECK(an == bn && (an == 0 || memcmp(a, b, an) == 0));
}

static void same_job(const struct job *a, const struct job *b)
{
    FUZZ_CHECK(memcmp(&a->limits, &b->limits, sizeof(a->limits)) == 0);
    same_strs(a->argc, a->argv, b->argc, b->argv);
    same_strs(a->nenv, a->env, b->nenv, b->env);
    FUZZ_CHECK(a->nfiles == b->nfiles);
    for (int i = 0; i < a->nfiles; i++) {
        FUZZ_CHECK(strcmp(a->files[i].path, b->files[i].path) == 0);
        FUZZ_CHECK(a->files[i].mode == b->files[i].mode);
        same_bytes(a->files[i].data, a->files[i].len, b->files[i].data, b->files[i].len);
    }
    same_bytes(a->stdin_data, a->stdin_len, b->stdin_data, b->stdin_len);
    same_strs(a->nfetch, a->fetch, b->nfetch, b->fetch);
    same_strs(a->grader_argc, a->grader_argv, b->grader_argc, b->grader_argv);
    FUZZ_CHECK(a->warm == b->warm);
}

static void job_msg(const uint8_t *p, size_t n)
{
    struct rbuf r;
    struct job j, again;
    char err[ERR_LEN];
    rbuf_init(&r, p, n);
    int rc = job_decode(&r, &j);
    if (rc < 0) {
        FUZZ_CHECK(rc == -EBADMSG || rc == -E2BIG || rc == -ENOMEM);
        FUZZ_CHECK(j.argv == NULL && j.files == NULL && j.argc == 0);
        return;
    }
    FUZZ_CHECK(job_check(&j, err) == 0);
    FUZZ_CHECK(j.argc >= 1 && j.argc <= JOB_MAX_ARGS && j.nfiles <= JOB_MAX_FILES);
    FUZZ_CHECK(j.nfetch <= JOB_MAX_FILES && j.grader_argc <= JOB_MAX_ARGS);
    struct buf b;
    buf_init(&b, 0);
    job_encode(&j, &b);
    FUZZ_CHECK(b.err == 0 && b.len == n - r.left && memcmp(b.data, p, b.len) == 0);
    rbuf_init(&r, b.data, b.len);
    FUZZ_CHECK(job_decode(&r, &again) == 0 && r.left == 0);
    same_job(&j, &again);
    job_decoded_fini(&again);
    buf_fini(&b);
    job_decoded_fini(&j);
}

static void same_result(const struct job_result *a, const struct job_result *b)
{
    FUZZ_CHECK(a->status == b->status && a->tle_clock == b->tle_clock);
    FUZZ_CHECK(a->exit_code == b->exit_code && a->signal == b->signal);
    FUZZ_CHECK(a->cpu_ms == b->cpu_ms && a->wall_ms == b->wall_ms);
    FUZZ_CHECK(a->memory_kib == b->memory_kib && a->instructions == b->instructions);
    FUZZ_CHECK(a->stdout_truncated == b->stdout_truncated);
    FUZZ_CHECK(a->stderr_truncated == b->stderr_truncated);
    same_bytes(a->out, a->out_len, b->out, b->out_len);
    same_bytes(a->err, a->err_len, b->err, b->err_len);
    FUZZ_CHECK(strcmp(a->message, b->message) == 0 && a->nfetched == b->nfetched);
    for (int i = 0; i < a->nfetched; i++) {
        FUZZ_CHECK(strcmp(a->fetched[i].path, b->fetched[i].path) == 0);
        FUZZ_CHECK(a->fetched[i].error == b->fetched[i].error);
        same_bytes(a->fetched[i].data, a->fetched[i].len, b->fetched[i].data, b->fetched[i].len);
    }
}

static void result_msg(const uint8_t *p, size_t n)
{
    struct rbuf r;
    struct job_result res, again;
    rbuf_init(&r, p, n);
    int rc = result_decode(&r, &res);
    if (rc < 0) {
        FUZZ_CHECK(rc == -EBADMSG || rc == -ENOMEM);
        FUZZ_CHECK(res.fetched == NULL);
        return;
    }
    FUZZ_CHECK(res.status <= JOB_SE && res.tle_clock <= JOB_CLOCK_SESSION);
    FUZZ_CHECK(res.nfetched >= 0 && res.nfetched <= JOB_MAX_FILES);
    FUZZ_CHECK(memchr(res.message, '\0', sizeof(res.message)) != NULL);
    for (int i = 0; i < res.nfetched; i++)
        FUZZ_CHECK(res.fetched[i].path != NULL);
    struct buf b;
    buf_init(&b, 0);
    result_encode(&res, &b);
    FUZZ_CHECK(b.err == 0);
    rbuf_init(&r, b.data, b.len);
    FUZZ_CHECK(result_decode(&r, &again) == 0 && r.left == 0);
    same_result(&res, &again);
    job_result_fini(&again);
    buf_fini(&b);
    job_result_fini(&res);
}

static void config_msg(const uint8_t *p, size_t n)
{
    struct rbuf r;
    struct cell_setup cs, again;
    rbuf_init(&r, p, n);
    if (cell_decode_config(&r, &cs) < 0)
        return;
    FUZZ_CHECK(cs.tree.version <= CG_V2 && cs.tree.ndirs >= 0 && cs.tree.ndirs <= CG_MAX_DIRS);
    FUZZ_CHECK(cs.nbinds >= 0 && cs.nbinds <= CELL_MAX_BINDS);
    FUZZ_CHECK(!cs.gpu_cell || (cs.gpu >= 0 && cs.gpu <= CELL_MAX_GPU));
    for (int i = 0; i < cs.tree.ndirs; i++)
        FUZZ_CHECK(memchr(cs.tree.dir[i], '\0', CG_PATH) != NULL);
    for (int i = 0; i < cs.nbinds; i++)
        FUZZ_CHECK(cs.binds[i] != NULL);
    struct cell_config cfg = {.index = cs.index,
                              .uid = cs.uid,
                              .gid = cs.gid,
                              .grader_uid = cs.grader_uid,
                              .tree = &cs.tree,
                              .nbinds = cs.nbinds,
                              .binds = cs.binds,
                              .tmpfs_bytes = cs.tmpfs_bytes,
                              .tmpfs_inodes = cs.tmpfs_inodes,
                              .gpu_cell = cs.gpu_cell,
                              .gpu = cs.gpu};
    struct buf b;
    buf_init(&b, 0);
    cell_encode_config(&cfg, &b);
    FUZZ_CHECK(b.err == 0);
    if (cs.tmpfs_bytes && cs.tmpfs_inodes) /* zero is sent as the default: not the same bytes */
        FUZZ_CHECK(b.len == n - r.left && memcmp(b.data, p, b.len) == 0);
    rbuf_init(&r, b.data, b.len);
    FUZZ_CHECK(cell_decode_config(&r, &again) == 0 && r.left == 0);
    FUZZ_CHECK(again.index == cs.index && again.uid == cs.uid && again.gid == cs.gid);
    FUZZ_CHECK(again.grader_uid == cs.grader_uid && again.tree.version == cs.tree.version);
    FUZZ_CHECK(again.tree.ndirs == cs.tree.ndirs && again.nbinds == cs.nbinds);
    for (int i = 0; i < cs.tree.ndirs; i++)
        FUZZ_CHECK(strcmp(again.tree.dir[i], cs.tree.dir[i]) == 0 &&
                   again.tree.ctrls[i] == cs.tree.ctrls[i]);
    same_strs(cs.nbinds, cs.binds, again.nbinds, again.binds);
    FUZZ_CHECK(again.gpu_cell == cs.gpu_cell && again.gpu == cs.gpu);
    buf_fini(&b);
}

static void session_call_msg(const uint8_t *p, size_t n)
{
    struct rbuf r;
    struct job j, again;
    enum session_mode mode, mode2;
    rbuf_init(&r, p, n);
    int rc = session_call_decode(&r, &mode, &j);
    if (rc < 0) {
        FUZZ_CHECK(rc == -EBADMSG || rc == -E2BIG || rc == -ENOMEM);
        FUZZ_CHECK(j.argv == NULL && j.files == NULL);
        return;
    }
    FUZZ_CHECK(mode == SESSION_RUN || mode == SESSION_CALL);
    struct buf b;
    buf_init(&b, 0);
    session_call_encode(mode, &j, &b);
    FUZZ_CHECK(b.err == 0 && b.len == n - r.left && memcmp(b.data, p, b.len) == 0);
    rbuf_init(&r, b.data, b.len);
    FUZZ_CHECK(session_call_decode(&r, &mode2, &again) == 0 && r.left == 0 && mode2 == mode);
    same_job(&j, &again);
    job_decoded_fini(&again);
    buf_fini(&b);
    job_decoded_fini(&j);
}

static void session_result_msg(const uint8_t *p, size_t n)
{
    struct rbuf r;
    struct session_result s, again;
    rbuf_init(&r, p, n);
    int rc = session_result_decode(&r, &s);
    if (rc < 0) {
        FUZZ_CHECK(rc == -EBADMSG || rc == -ENOMEM);
        FUZZ_CHECK(s.res.fetched == NULL);
        return;
    }
    FUZZ_CHECK(s.res.status <= JOB_SE && s.res.tle_clock <= JOB_CLOCK_SESSION);
    FUZZ_CHECK(!s.reply || s.reply_len <= SESSION_REPLY_MAX);
    struct buf b;
    buf_init(&b, 0);
    session_result_encode(&s, &b);
    FUZZ_CHECK(b.err == 0);
    rbuf_init(&r, b.data, b.len);
    FUZZ_CHECK(session_result_decode(&r, &again) == 0 && r.left == 0);
    same_result(&s.res, &again.res);
    FUZZ_CHECK((s.reply == NULL) == (again.reply == NULL));
    if (s.reply)
        same_bytes(s.reply, s.reply_len, again.reply, again.reply_len);
    FUZZ_CHECK(s.started == again.started && s.lost == again.lost);
    const struct session_totals *t = &s.totals, *u = &again.totals;
    FUZZ_CHECK(t->cpu_ms == u->cpu_ms && t->memory_kib == u->memory_kib &&
               t->memory_peak_kib == u->memory_peak_kib && t->starts == u->starts &&
               t->alive == u->alive && t->cpu_spent == u->cpu_spent);
    job_result_fini(&again.res);
    buf_fini(&b);
    job_result_fini(&s.res);
}

static void session_limits_msg(const uint8_t *p, size_t n)
{
    struct rbuf r;
    struct session_limits l, again;
    rbuf_init(&r, p, n);
    if (session_limits_decode(&r, &l) < 0)
        return;
    FUZZ_CHECK(l.memory_bytes > 0 && l.pids > 0 && l.cpu_ms > 0);
    struct buf b;
    buf_init(&b, 0);
    session_limits_encode(&l, &b);
    FUZZ_CHECK(b.err == 0 && b.len == n - r.left && memcmp(b.data, p, b.len) == 0);
    rbuf_init(&r, b.data, b.len);
    FUZZ_CHECK(session_limits_decode(&r, &again) == 0 && r.left == 0);
    FUZZ_CHECK(l.memory_bytes == again.memory_bytes && l.pids == again.pids &&
               l.cpu_ms == again.cpu_ms);
    buf_fini(&b);
}

static void decode(uint32_t type, const uint8_t *p, size_t n)
{
    switch (type % 6) {
    case 0:
        job_msg(p, n);
        break;
    case 1:
        result_msg(p, n);
        break;
    case 2:
        config_msg(p, n);
        break;
    case 3:
        session_call_msg(p, n);
        break;
    case 4:
        session_result_msg(p, n);
        break;
    default:
        session_limits_msg(p, n);
    }
}

/* A frame through wire_send and back. */
static void resend(uint32_t type, const uint8_t *p, size_t n)
{
    int sv[2];
    uint32_t t;
    uint8_t *q;
    size_t len;
    FUZZ_CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    FUZZ_CHECK(wire_send(sv[0], type, p, n) == 0);
    FUZZ_CHECK(wire_recv(sv[1], &t, &q, &len, n) == 0 && t == type);
    same_bytes(q, len, p, n);
    free(q);
    close(sv[0]);
    close(sv[1]);
}

static void stream(const uint8_t *data, size_t size, size_t max_len)
{
    int sv[2];
    FUZZ_CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    /* the whole input fits the socket's buffer (libFuzzer's inputs are small; replay's too) */
    FUZZ_CHECK(size == 0 || write(sv[0], data, size) == (ssize_t)size);
    shutdown(sv[0], SHUT_WR);
    size_t at = 0;
    for (;;) {
        uint32_t type;
        uint8_t *p = (uint8_t *)&type;
        size_t len = 1;
        int rc = wire_recv(sv[1], &type, &p, &len, max_len);
        if (rc < 0) {
            FUZZ_CHECK(p == NULL && len == 0);
            FUZZ_CHECK(at == size ? rc == -ECONNRESET : rc == -EPIPE || rc == -EBADMSG);
            break;
        }
        FUZZ_CHECK(len <= max_len && (len == 0) == (p == NULL) && at + 16 + len <= size);
        same_bytes(p, len, data + at + 16, len);
        at += 16 + len;
        decode(type, p, len);
        resend(type, p, len);
        free(p);
    }
    close(sv[0]);
    close(sv[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const size_t max_lens[] = {0, 16, 256, 1u << 20};
    if (size < 2 || size > (64u << 10))
        return 0;
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    switch (data[0] % 7) {
    case 0:
        job_msg(p, n);
        break;
    case 1:
        result_msg(p, n);
        break;
    case 2:
        config_msg(p, n);
        break;
    case 3:
        stream(data + 2, size - 2, max_lens[data[1] % 4]);
        break;
    case 4:
        session_call_msg(p, n);
        break;
    case 5:
        session_result_msg(p, n);
        break;
    default:
        session_limits_msg(p, n);
    }
    return 0;
}
