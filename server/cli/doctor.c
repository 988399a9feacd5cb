/*
 * doctor: the host report.
 *
 * Collection runs the probes one after another (toolchain versions run in parallel inside
 * toolchain_probe_all); each probe lives in the module that owns its mechanism (ns, mount,
 * cgroup, seccomp, toolchain, gpu), so doctor only orders them, turns their answers into
 * checks, and renders. What counts as "required" is decided here and nowhere else:
 * privileges, the pid/mount/net/ipc/uts namespaces, a cgroup hierarchy with memory, pids and
 * CPU accounting, seccomp, pivot_root, and finally a real cell running /bin/true end to end.
 * Toolchains and GPUs are reported but never block.
 */
#include "server/cli/doctor.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "build_info.h"
#include "runners/file.h"
#include "runners/mount.h"
#include "runners/ns.h"
#include "runners/pool.h"
#include "runners/seccomp.h"
#include "server/judge/lang.h"
#include "server/judge/packages.h"
#include "server/util/json.h"

#define TOOL_TIMEOUT_MS 10000

/* Text marks line up in a column and shout on failure; JSON names are plain lower case. */
static const char *const state_marks[] = {"ok", "warn", "FAIL", "--"};
static const char *const state_names[] = {"ok", "warn", "fail", "info"};

struct check *doctor_add(struct doctor_report *r, const char *group, const char *name,
                         enum check_state state, bool required, const char *fmt, ...)
{
    if (r->nchecks >= DOCTOR_MAX_CHECKS)
        return NULL;
    struct check *c = &r->checks[r->nchecks++];
    memset(c, 0, sizeof(*c));
    snprintf(c->group, sizeof(c->group), "%s", group);
    snprintf(c->name, sizeof(c->name), "%s", name);
    c->state = state;
    c->required = required;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
    va_end(ap);
    return c;
}

int doctor_parse_kernel(const char *release, int *major, int *minor, int *patch)
{
    int n = 0, a = 0, b = 0, c = 0;
    if (sscanf(release, "%d.%d%n", &a, &b, &n) != 2 || a < 0 || b < 0)
        return -EINVAL;
    if (release[n] == '.' && sscanf(release + n + 1, "%d", &c) != 1)
        c = 0;
    *major = a;
    *minor = b;
    *patch = c < 0 ? 0 : c;
    return 0;
}

static void check_privilege(struct doctor_report *r)
{
    char status[4096] = "", missing[256];
    file_read("/proc/self/status", status, sizeof(status));
    int n = pool_missing_caps(status, missing, sizeof(missing));
    uid_t euid = geteuid();
    if (euid == 0 && n == 0)
        doctor_add(r, "privilege", "root", CHECK_OK, true,
                   "euid 0 with every capability the cells use");
    else
        doctor_add(r, "privilege", "root", CHECK_FAIL, true,
                   "euid %d%s%s: cells need root with the capabilities to build namespaces, "
                   "mounts and cgroups, switch uids and stop jobs",
                   (int)euid, n ? " without " : "", n ? missing : "");
}

static void check_kernel(struct doctor_report *r)
{
    struct utsname u;
    if (uname(&u) < 0) {
        doctor_add(r, "kernel", "release", CHECK_FAIL, true, "uname: %s", strerror(errno));
        return;
    }
    snprintf(r->kernel, sizeof(r->kernel), "%s", u.release);
    if (doctor_parse_kernel(u.release, &r->kernel_major, &r->kernel_minor, &r->kernel_patch) < 0) {
        doctor_add(r, "kernel", "release", CHECK_WARN, false, "%s (unparsable)", u.release);
        return;
    }
    /* 5.7 brought clone3(CLONE_INTO_CGROUP); 5.19 brought memory.peak on cgroup v2. */
    bool modern = r->kernel_major > 5 || (r->kernel_major == 5 && r->kernel_minor >= 19);
    doctor_add(r, "kernel", "release", modern ? CHECK_OK : CHECK_WARN, false, "%s %s", u.release,
               modern ? "(>= 5.19: clone3 into cgroup, memory.peak)"
                      : "(older than 5.19: no memory.peak on cgroup v2)");
}

static void check_namespaces(struct doctor_report *r)
{
    for (int k = 0; k < NS_COUNT; k++) {
        char detail[ERR_LEN] = "", err[ERR_LEN] = "";
        bool req = ns_required((enum ns_kind)k);
        int rc = ns_probe((enum ns_kind)k, detail, err);
        enum check_state st = rc == 0 ? CHECK_OK : req ? CHECK_FAIL : CHECK_WARN;
        doctor_add(r, "namespace", ns_name((enum ns_kind)k), st, req, "%s", rc == 0 ? detail : err);
    }
}

static void check_swap(struct doctor_report *r, const char *memdir)
{
    char swaps[4096] = "", path[CG_PATH + 64];
    file_read("/proc/swaps", swaps, sizeof(swaps));
    bool host_swap = strchr(swaps, '\n') && strchr(swaps, '\n')[1] != '\0';
    snprintf(path, sizeof(path), "%s/%s", memdir,
             r->cgroup.version == CG_V2 ? "memory.swap.max" : "memory.memsw.limit_in_bytes");
    bool accounted = access(path, F_OK) == 0;
    if (!host_swap)
        doctor_add(r, "cgroup", "swap", CHECK_OK, false, "host has no swap: limits are exact");
    else
        doctor_add(r, "cgroup", "swap", accounted ? CHECK_OK : CHECK_WARN, false,
                   "host swap is on; %s",
                   accounted ? "swap is accounted and will be capped"
                             : "no swap accounting: jobs could swap "
                               "beyond their memory limit");
}

static void check_cgroups(struct doctor_report *r)
{
    char err[ERR_LEN] = "";
    struct cg_host *h = &r->cgroup;
    if (cg_detect(h, err) < 0) {
        doctor_add(r, "cgroup", "version", CHECK_FAIL, true, "%s", err);
        return;
    }
    if (h->version == CG_NONE) {
        doctor_add(r, "cgroup", "version", CHECK_FAIL, true,
                   "no usable cgroup hierarchy (v2 without memory+pids, and no v1 memory)");
        return;
    }
    if (h->version == CG_V2)
        doctor_add(r, "cgroup", "version", CHECK_OK, true, "v2 (unified) at %s", h->v2_dir);
    else
        doctor_add(r, "cgroup", "version", CHECK_OK, true, "v1%s",
                   h->v2_mounted ? " (hybrid: the cgroup2 mount offers no controllers here)" : "");
    for (int c = 0; c < CG_NCTRL; c++) {
        char detail[ERR_LEN] = "";
        bool req = c != CG_CPU; /* cpu (rate limits) is useful; accounting is not optional */
        int rc = cg_probe(h, (enum cg_ctrl)c, detail, err);
        enum check_state st = rc == 0 ? CHECK_OK : req ? CHECK_FAIL : CHECK_WARN;
        doctor_add(r, "cgroup", cg_ctrl_name((enum cg_ctrl)c), st, req, "%s",
                   rc == 0 ? detail : err);
    }
    if (cg_dir(h, CG_MEMORY))
        check_swap(r, cg_dir(h, CG_MEMORY));
}

static void check_seccomp_and_mount(struct doctor_report *r)
{
    char detail[ERR_LEN] = "", err[ERR_LEN] = "";
    int rc = sc_probe(detail, err);
    doctor_add(r, "seccomp", "filter", rc == 0 ? CHECK_OK : CHECK_FAIL, true, "%s",
               rc == 0 ? detail : err);
    rc = mnt_probe_pivot_root(detail, err);
    doctor_add(r, "mount", "pivot_root", rc == 0 ? CHECK_OK : CHECK_FAIL, true, "%s",
               rc == 0 ? detail : err);
}

/* End to end: a real cell starts and runs /bin/true to an OK verdict. */
static void check_cell(struct doctor_report *r)
{
    char reason[64], exe[4096], err[ERR_LEN] = "";
    if (!doctor_ready(r, reason, sizeof(reason))) {
        doctor_add(r, "sandbox", "cell", CHECK_FAIL, true, "not tried: earlier checks failed");
        return;
    }
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n < 0) {
        doctor_add(r, "sandbox", "cell", CHECK_FAIL, true, "/proc/self/exe: %s", strerror(errno));
        return;
    }
    exe[n] = '\0';
    /* uid_base/uid_count 0: the host-wide range; the cell's uid is locked (uidlock.h) */
    struct pool_config pc = {.cells = 1, .exe = exe};
    struct pool *pool = NULL;
    if (pool_new(&pc, &pool, err) < 0) {
        doctor_add(r, "sandbox", "cell", CHECK_FAIL, true, "%s", err);
        return;
    }
    const char *argv[] = {"/bin/true", NULL};
    struct job j = {.argc = 1, .argv = argv};
    struct job_result res;
    uint8_t *payload = NULL;
    pool_run(pool, &j, &res, &payload);
    if (res.status == JOB_OK)
        doctor_add(r, "sandbox", "cell", CHECK_OK, true,
                   "a cell started (uid %u) and ran /bin/true: OK in %lld ms wall, %llu KiB",
                   pool_cell_uid(pool, 0), (long long)res.wall_ms,
                   (unsigned long long)res.memory_kib);
    else
        doctor_add(r, "sandbox", "cell", CHECK_FAIL, true, "/bin/true in a cell: %s %s",
                   job_status_name(res.status), res.message);
    job_result_fini(&res);
    free(payload);
    pool_free(pool);
}

static void check_toolchains(struct doctor_report *r)
{
    r->ntools = toolchain_count() < DOCTOR_MAX_TOOLS ? toolchain_count() : DOCTOR_MAX_TOOLS;
    toolchain_probe_all(r->tools, TOOL_TIMEOUT_MS);
    for (size_t i = 0; i < r->ntools; i++) {
        const struct toolchain_found *t = &r->tools[i];
        if (t->ok)
            doctor_add(r, "toolchain", t->name, CHECK_OK, false, "%s  [%s]", t->version, t->path);
        else
            doctor_add(r, "toolchain", t->name, CHECK_WARN, false, "%s", t->err);
    }
}

/* Each language template: loaded, and its toolchain answering its version command. */
static void check_languages(struct doctor_report *r, const char *dir)
{
    struct lang_set *set = NULL;
    char err[ERR_LEN];
    if (lang_load_dir(dir, &set, err) < 0) {
        doctor_add(r, "language", "templates", CHECK_WARN, false, "%s", err);
        return;
    }
    lang_probe(set, NULL);
    for (int i = 0; i < lang_count(set); i++) {
        const struct lang *l = lang_at(set, i);
        if (l->available) {
            char pk[512] = "";
            size_t o = 0;
            for (int k = 0; k < l->npackages && o + 1 < sizeof(pk); k++)
                o += (size_t)snprintf(pk + o, sizeof(pk) - o, "%s%s %s",
                                      k ? ", " : "; packages: ", l->packages[k].name,
                                      l->packages[k].version);
            doctor_add(r, "language", l->name, CHECK_OK, false, "%s%s%s", l->version_line,
                       l->needs_gpu ? "  (runs need a GPU)" : "", pk);
        } else
            doctor_add(r, "language", l->name, CHECK_WARN, false, "unavailable: %s", l->why);
    }
    lang_set_free(set);
}

static void check_gpu(struct doctor_report *r)
{
    gpu_probe(&r->gpu);
    const struct gpu_info *g = &r->gpu;
    if (g->count == 0) {
        doctor_add(r, "gpu", "cuda", CHECK_INFO, false, "%s", g->detail);
        return;
    }
    for (int i = 0; i < g->count && i < GPU_MAX; i++) {
        char name[16];
        snprintf(name, sizeof(name), "gpu%d", i);
        doctor_add(r, "gpu", name, CHECK_OK, false, "%s (sm_%d%d); %s", g->dev[i].name,
                   g->dev[i].cc_major, g->dev[i].cc_minor, g->detail);
    }
}

void doctor_collect(struct doctor_report *r, const struct doctor_opts *o)
{
    memset(r, 0, sizeof(*r));
    check_privilege(r);
    check_kernel(r);
    check_namespaces(r);
    check_cgroups(r);
    check_seccomp_and_mount(r);
    check_cell(r);
    if (!o->skip_toolchains)
        check_toolchains(r);
    if (!o->skip_toolchains && o->languages_dir)
        check_languages(r, o->languages_dir);
    if (!o->skip_gpu)
        check_gpu(r);
}

bool doctor_ready(const struct doctor_report *r, char *reason, size_t cap)
{
    bool ready = true;
    size_t used = 0;
    if (cap > 0)
        reason[0] = '\0';
    for (int i = 0; i < r->nchecks; i++) {
        const struct check *c = &r->checks[i];
        if (!c->required || c->state != CHECK_FAIL)
            continue;
        if (used < cap) {
            int n = snprintf(reason + used, cap - used, "%s%s %s: %s", ready ? "" : "; ", c->group,
                             c->name, c->detail);
            used += n > 0 ? (size_t)n : 0;
        }
        ready = false;
    }
    return ready;
}

void doctor_print_text(FILE *out, const struct doctor_report *r)
{
    fprintf(out, "verdict doctor %s: can this host run sandboxed jobs?\n\n", VERDICT_VERSION);
    for (int i = 0; i < r->nchecks; i++) {
        const struct check *c = &r->checks[i];
        fprintf(out, "  %-10s %-11s %-5s %s\n", c->group, c->name, state_marks[c->state],
                c->detail);
    }
    char reason[2048];
    if (doctor_ready(r, reason, sizeof(reason)))
        fprintf(out, "\nready: this host can run sandboxed jobs (cgroup v%d)\n",
                (int)r->cgroup.version);
    else
        fprintf(out, "\nNOT READY: %s\n", reason);
}

static struct json *tools_json(const struct doctor_report *r)
{
    struct json *arr = json_array();
    for (size_t i = 0; i < r->ntools; i++) {
        const struct toolchain_found *t = &r->tools[i];
        struct json *o = json_push(arr, json_object());
        json_set_str(o, "name", t->name);
        json_set_bool(o, "found", t->found);
        json_set_bool(o, "ok", t->ok);
        json_set_str(o, "path", t->found ? t->path : NULL);
        json_set_str(o, "version", t->ok ? t->version : NULL);
        json_set_str(o, "error", t->ok ? NULL : t->err);
    }
    return arr;
}

static struct json *gpu_json(const struct gpu_info *g)
{
    struct json *o = json_object();
    char ver[32];
    json_set_bool(o, "runtime", g->runtime);
    json_set_str(o, "runtime_path", g->runtime ? g->runtime_path : NULL);
    snprintf(ver, sizeof(ver), "%d.%d", g->runtime_version / 1000, g->runtime_version % 1000 / 10);
    json_set_str(o, "runtime_version", g->runtime ? ver : NULL);
    snprintf(ver, sizeof(ver), "%d.%d", g->driver_version / 1000, g->driver_version % 1000 / 10);
    json_set_str(o, "driver_version", g->driver_version ? ver : NULL);
    json_set_num(o, "count", g->count);
    struct json *devs = json_set(o, "devices", json_array());
    for (int i = 0; i < g->count && i < GPU_MAX; i++) {
        struct json *d = json_push(devs, json_object());
        json_set_num(d, "index", i);
        json_set_str(d, "name", g->dev[i].name);
        snprintf(ver, sizeof(ver), "%d.%d", g->dev[i].cc_major, g->dev[i].cc_minor);
        json_set_str(d, "compute_capability", ver);
    }
    json_set_str(o, "detail", g->detail);
    return o;
}

static struct json *cgroup_json(const struct cg_host *h)
{
    struct json *o = json_object();
    json_set_num(o, "version", (int)h->version);
    json_set_bool(o, "v2_mounted", h->v2_mounted);
    struct json *dirs = json_set(o, "dirs", json_object());
    for (int c = 0; c < CG_NCTRL; c++)
        json_set_str(dirs, cg_ctrl_name((enum cg_ctrl)c), cg_dir(h, (enum cg_ctrl)c));
    return o;
}

char *doctor_render_json(const struct doctor_report *r)
{
    char reason[2048];
    struct json *root = json_object();
    json_set_bool(root, "ready", doctor_ready(r, reason, sizeof(reason)));
    json_set_str(root, "reason", reason);
    json_set_str(root, "verdict_version", VERDICT_VERSION);
    struct json *k = json_set(root, "kernel", json_object());
    json_set_str(k, "release", r->kernel);
    json_set_num(k, "major", r->kernel_major);
    json_set_num(k, "minor", r->kernel_minor);
    json_set_num(k, "patch", r->kernel_patch);
    json_set(root, "cgroup", cgroup_json(&r->cgroup));
    struct json *checks = json_set(root, "checks", json_array());
    for (int i = 0; i < r->nchecks; i++) {
        const struct check *c = &r->checks[i];
        struct json *o = json_push(checks, json_object());
        json_set_str(o, "group", c->group);
        json_set_str(o, "name", c->name);
        json_set_str(o, "status", state_names[c->state]);
        json_set_bool(o, "required", c->required);
        json_set_str(o, "detail", c->detail);
    }
    json_set(root, "toolchains", tools_json(r));
    json_set(root, "gpu", gpu_json(&r->gpu));
    char *text = json_render(root, true);
    json_free(root);
    return text;
}
