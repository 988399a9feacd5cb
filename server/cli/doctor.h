/*
 * doctor: can this host run sandboxed jobs? One report, for humans and for machines.
 *
 * doctor_collect() runs every host probe (privileges, kernel, namespaces, cgroups, seccomp,
 * pivot_root, toolchains, GPUs); each probe changes nothing outside a temporary child process,
 * namespace or cgroup that it removes itself. The report is then judged by doctor_ready() and
 * printed as text or JSON.
 */
#ifndef VERDICT_DOCTOR_H
#define VERDICT_DOCTOR_H

#include <stdbool.h>
#include <stdio.h>

#include "runners/cgroup.h"
#include "server/judge/gpu.h"
#include "server/judge/lang.h"
#include "server/judge/toolchain.h"

/* The host's own checks (about 20), one per language template, one per GPU. */
#define DOCTOR_MAX_CHECKS (32 + LANG_MAX + GPU_MAX)
#define DOCTOR_MAX_TOOLS  16

enum check_state { CHECK_OK, CHECK_WARN, CHECK_FAIL, CHECK_INFO };

struct check {
    char group[16]; /* "namespace", "cgroup", "toolchain", ... */
    char name[24];  /* "pid", "memory", "gcc", ... */
    enum check_state state;
    bool required; /* a FAIL here means the host cannot run jobs */
    char detail[ERR_LEN + 64];
};

struct doctor_report {
    char kernel[128]; /* uname release, e.g. "6.1.0-18-amd64" */
    int kernel_major, kernel_minor, kernel_patch;
    struct cg_host cgroup;
    int nchecks;
    struct check checks[DOCTOR_MAX_CHECKS];
    size_t ntools;
    struct toolchain_found tools[DOCTOR_MAX_TOOLS];
    struct gpu_info gpu;
};

struct doctor_opts {
    bool skip_toolchains;      /* do not spawn version commands (toolchains, languages) */
    bool skip_gpu;             /* do not load the CUDA runtime */
    const char *languages_dir; /* language templates to check, or NULL for none */
};

/* Runs all probes into r (caller storage, overwritten). Never fails: a probe that cannot run
 * becomes a FAIL or WARN check with its reason. */
void doctor_collect(struct doctor_report *r, const struct doctor_opts *o);

/* Appends a check to r (silently dropped past DOCTOR_MAX_CHECKS); returns it or NULL. */
struct check *doctor_add(struct doctor_report *r, const char *group, const char *name,
                         enum check_state state, bool required, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* True when no required check failed. Otherwise writes "group name: detail; ..." for every
 * failed required check into reason (cap bytes). Pure. */
bool doctor_ready(const struct doctor_report *r, char *reason, size_t cap);

/* Splits a kernel release ("6.18.44-fc-v769", "5.10.0", "4.19") into numbers; absent parts
 * are 0. Returns 0, or -EINVAL if it does not start with "MAJOR.MINOR". Pure. */
int doctor_parse_kernel(const char *release, int *major, int *minor, int *patch);

/* The report as aligned text lines, ending with the ready / not-ready line. */
void doctor_print_text(FILE *out, const struct doctor_report *r);

/* The report as a JSON document (heap string, caller frees), or NULL on allocation failure. */
char *doctor_render_json(const struct doctor_report *r);

#endif
