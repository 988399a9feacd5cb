/*
 * cgroup: control groups, v2 (unified) and v1 (one hierarchy per controller), prefix cg_.
 *
 * verdict never creates cgroups at a hierarchy's root by assumption: it reads where its own
 * process sits (/proc/self/cgroup), finds that cgroup's directory through the mount table
 * (/proc/self/mountinfo, whose root field matters inside containers), and works beneath it as
 * in a delegated subtree. This issue provides detection and the host probe; per-job cgroups
 * arrive with the sandbox engine.
 */
#ifndef VERDICT_CGROUP_H
#define VERDICT_CGROUP_H

#include <stdbool.h>

#include "runners/err.h"

#define CG_PATH 512

enum cg_version { CG_NONE = 0, CG_V1 = 1, CG_V2 = 2 };

/* The controllers a job needs. On v2 CPU accounting is cpu.stat, which every cgroup has, so
 * CG_CPUACCT is always "present" there. */
enum cg_ctrl { CG_MEMORY, CG_PIDS, CG_CPU, CG_CPUACCT, CG_NCTRL };

struct cg_host {
    enum cg_version version;        /* the hierarchy verdict will use; CG_NONE if unusable */
    bool v2_mounted;                /* some cgroup2 mount is visible (maybe with no controllers) */
    char v2_dir[CG_PATH];           /* our cgroup's directory in the v2 hierarchy, or "" */
    unsigned v2_controllers;        /* bit (1u << cg_ctrl): listed in our cgroup.controllers */
    char v1_dir[CG_NCTRL][CG_PATH]; /* our cgroup's directory per v1 controller, or "" */
};

/* Short name of a controller ("memory", "pids", "cpu", "cpuacct"); static string. */
const char *cg_ctrl_name(enum cg_ctrl c);

/* Parses the text of /proc/self/cgroup and /proc/self/mountinfo into h (version left
 * CG_NONE, v2_controllers 0). Pure: reads no files. Returns 0, or -EINVAL with the offending
 * line in err when either text is malformed. */
int cg_parse(const char *self_cgroup, const char *mountinfo, struct cg_host *h, char err[ERR_LEN]);

/* Parses a v2 cgroup.controllers or cgroup.subtree_control line ("cpuset cpu io memory
 * pids") into a bit mask over enum cg_ctrl. CG_CPUACCT is set whenever "cpu" is, since v2
 * accounts CPU time in every cgroup. */
unsigned cg_parse_controllers(const char *text);

/* Chooses h->version: v2 when our v2 cgroup offers memory and pids, else v1 when the v1
 * memory hierarchy is mounted, else CG_NONE. Pure. */
void cg_decide(struct cg_host *h);

/* cg_parse + reading our v2 cgroup.controllers + cg_decide, on the running host. Returns 0,
 * or a negative errno with the reason in err (no /proc, unparsable files). A host without
 * usable cgroups is not an error: h->version is CG_NONE. */
int cg_detect(struct cg_host *h, char err[ERR_LEN]);

/* Directory in which verdict would create its cgroups for controller c (our own cgroup in
 * that controller's hierarchy under the chosen version), or NULL if there is none. Borrowed. */
const char *cg_dir(const struct cg_host *h, enum cg_ctrl c);

/* Tries controller c for real: creates a temporary child cgroup beneath cg_dir(), writes a
 * limit and reads it back, attaches a short-lived child process to it, and removes it again.
 * Returns 0 with what was verified in detail, or a negative errno with the failing step in
 * err. Touches nothing but the temporary cgroup it creates. On v2, a controller not yet
 * enabled in our cgroup.subtree_control is reported as usable only if this process is alone
 * in its cgroup (so the server can move itself into a leaf and enable it). */
int cg_probe(const struct cg_host *h, enum cg_ctrl c, char detail[ERR_LEN], char err[ERR_LEN]);

#endif
