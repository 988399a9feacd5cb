/*
 * main: the `verdict` command: one binary, subcommands from a table.
 *
 * Each subcommand has a name, a one-line summary, a usage line and a function taking the
 * arguments after its name. Usage errors (unknown subcommand, bad flag) print one line and the
 * usage on stderr and exit 2; --help prints usage on stdout and exits 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_info.h"
#include "runners/cell.h"
#include "runners/seccomp.h"
#include "server/cli/bench.h"
#include "server/cli/doctor.h"
#include "server/cli/run.h"
#include "server/cli/serve.h"
#include "server/datasets/dataset.h"
#include "server/judge/session.h"
#include "server/util/opts.h"

#define EXIT_USAGE 2

struct command {
    const char *name;
    const char *summary;
    const char *usage; /* after "verdict NAME" */
    const struct opt *opts;
    const char *env_prefix; /* options also come from PREFIX_NAME variables and --config */
    int (*fn)(const struct command *cmd, int argc, char **argv, int first);
};

static bool help;

static int usage_error(const struct command *cmd, const char *msg)
{
    fprintf(stderr, "verdict %s: %s\n", cmd->name, msg);
    fprintf(stderr, "usage: verdict %s %s\n", cmd->name, cmd->usage);
    fprintf(stderr, "Try 'verdict %s --help'.\n", cmd->name);
    return EXIT_USAGE;
}

static void print_help(const struct command *cmd)
{
    printf("usage: verdict %s %s\n\n%s\n", cmd->name, cmd->usage, cmd->summary);
    if (cmd->opts && cmd->opts[0].name) {
        printf("\noptions:\n");
        opts_usage(stdout, cmd->opts);
    }
}

/* Parses cmd's flags; returns the first positional index, or -1 after printing an error or
 * help (with *exit_code set). */
static int parse_flags(const struct command *cmd, int argc, char **argv, int *exit_code)
{
    char err[ERR_LEN];
    help = false;
    int first = 0;
    if (cmd->env_prefix) { /* a config file, then the environment, then the command line */
        const char *cfg = opts_peek(cmd->opts, argc, argv, 1, "config");
        char var[64];
        snprintf(var, sizeof(var), "%sCONFIG", cmd->env_prefix);
        cfg = cfg ? cfg : getenv(var);
        if (cfg && *cfg)
            first = opts_file(cmd->opts, cfg, err);
        if (first == 0)
            first = opts_env(cmd->opts, cmd->env_prefix, err);
    }
    if (first == 0)
        first = opts_parse(cmd->opts, argc, argv, 1, NULL, err);
    if (first < 0) {
        *exit_code = usage_error(cmd, err);
        return -1;
    }
    if (help) {
        print_help(cmd);
        *exit_code = 0;
        return -1;
    }
    return first;
}

static bool json_out, skip_toolchains, skip_gpu;
static const char *doctor_languages;
static struct run_opts run_opts;
static struct serve_opts serve_opts = {.max_sessions = -1};
static struct bench_opts bench_opts;
static const char *db_path, *data_format;
static bool force;

/* Flags may follow positional arguments too: collects the positionals of argv[first..argc)
 * into pos (at most max), parsing the flags between them. Returns how many, or -1 after
 * printing a usage error (*exit_code set). */
static int positionals(const struct command *cmd, int argc, char **argv, int first, char **pos,
                       int max, int *exit_code)
{
    int n = 0;
    char err[ERR_LEN];
    for (int i = first; i < argc;) {
        if (n == max) {
            *exit_code = usage_error(cmd, "too many arguments");
            return -1;
        }
        pos[n++] = argv[i];
        int next = opts_parse(cmd->opts, argc, argv, i + 1, NULL, err);
        if (next < 0) {
            *exit_code = usage_error(cmd, err);
            return -1;
        }
        i = next;
    }
    if (help) {
        print_help(cmd);
        *exit_code = 0;
        return -1;
    }
    return n;
}

static const char *db_default(void)
{
    const char *env = getenv("VERDICT_DB");
    return db_path ? db_path : env && *env ? env : VERDICT_DB;
}

static int cmd_datasets(const struct command *cmd, int argc, char **argv, int first)
{
    char *pos[4], err[ERR_LEN];
    int rc = 0, n = positionals(cmd, argc, argv, first, pos, 4, &rc);
    if (n < 0)
        return rc;
    bool import = n >= 1 && strcmp(pos[0], "import") == 0;
    bool list = n >= 1 && strcmp(pos[0], "list") == 0;
    if (!(import && (n == 3 || n == 2)) && !(list && n == 1))
        return usage_error(cmd, "expected: import NAME PATH, import DIR, or list");
    struct dataset_store *s;
    if (dataset_open(db_default(), &s, err) < 0) {
        fprintf(stderr, "verdict datasets: %s\n", err);
        return 1;
    }
    if (import && n == 2) { /* a directory of datasets, each named by its path */
        rc = dataset_import_dir(s, pos[1], stdout, err);
        if (rc < 0)
            fprintf(stderr, "verdict datasets: %s\n", err);
        rc = rc != 0;
    } else if (import) {
        bool skipped;
        int count = dataset_import(s, pos[1], pos[2], data_format, force, &skipped, err);
        if (count < 0)
            fprintf(stderr, "verdict datasets: %s: nothing imported: %s\n", pos[1], err);
        else if (skipped)
            printf("%s: unchanged since its import (--force to read it again)\n", pos[1]);
        else
            printf("%s: %d problems imported from %s\n", pos[1], count, pos[2]);
        rc = count < 0;
    } else {
        struct json *l = dataset_list(s);
        if (json_out) {
            char *text = json_render(l, true);
            printf("%s\n", text ? text : "[]");
            free(text);
        } else {
            printf("%-20s %-15s %8s  %s\n", "NAME", "FORMAT", "PROBLEMS", "SOURCE");
            for (int i = 0; i < json_len(l); i++) {
                const char *name = "", *fmt = "", *src = "";
                double count = 0;
                json_str(json_get(json_at(l, i), "name"), &name);
                json_str(json_get(json_at(l, i), "format"), &fmt);
                json_str(json_get(json_at(l, i), "source"), &src);
                json_num(json_get(json_at(l, i), "problems"), &count);
                printf("%-20s %-15s %8.0f  %s\n", name, fmt, count, src);
            }
        }
        json_free(l);
    }
    dataset_close(s);
    return rc;
}

static int cmd_bench(const struct command *cmd, int argc, char **argv, int first)
{
    char *pos[2];
    int rc = 0, n = positionals(cmd, argc, argv, first, pos, 2, &rc);
    if (n < 0)
        return rc;
    if (n != (bench_opts.reference ? 1 : 2))
        return usage_error(cmd, bench_opts.reference ? "--reference takes only DATASET"
                                                     : "expected DATASET SAMPLES.jsonl");
    bench_opts.dataset = pos[0];
    bench_opts.samples = n == 2 ? pos[1] : NULL;
    bench_opts.db = db_default();
    return bench_main(&bench_opts);
}

static int cmd_serve(const struct command *cmd, int argc, char **argv, int first)
{
    (void)argv;
    if (first < argc)
        return usage_error(cmd, "takes no arguments");
    return serve_main(&serve_opts);
}

static int cmd_run(const struct command *cmd, int argc, char **argv, int first)
{
    if (first >= argc)
        return usage_error(cmd, run_opts.lang ? "missing the source file"
                                              : "missing the program to run (after --)");
    if (run_opts.lang && argc - first != 1)
        return usage_error(cmd, "--lang takes exactly one source file");
    run_opts.json = json_out;
    run_opts.argc = argc - first;
    run_opts.argv = argv + first;
    return run_main(&run_opts);
}

static int cmd_doctor(const struct command *cmd, int argc, char **argv, int first)
{
    (void)argv;
    if (first < argc)
        return usage_error(cmd, "takes no arguments");
    struct doctor_report *r = malloc(sizeof(*r));
    if (!r) {
        fprintf(stderr, "verdict doctor: out of memory\n");
        return 1;
    }
    const char *env = getenv("VERDICT_LANGUAGES");
    struct doctor_opts o = {.skip_toolchains = skip_toolchains,
                            .skip_gpu = skip_gpu,
                            .languages_dir = doctor_languages ? doctor_languages
                                             : env && *env    ? env
                                                              : VERDICT_LANGUAGES_DIR};
    doctor_collect(r, &o);
    char reason[16];
    int rc = doctor_ready(r, reason, sizeof(reason)) ? 0 : 1;
    if (json_out) {
        char *text = doctor_render_json(r);
        if (text)
            printf("%s\n", text);
        else
            rc = 1;
        free(text);
    } else {
        doctor_print_text(stdout, r);
    }
    free(r);
    return rc;
}

static int cmd_version(const struct command *cmd, int argc, char **argv, int first)
{
    (void)argv;
    if (first < argc)
        return usage_error(cmd, "takes no arguments");
    char sc[64];
    printf("verdict %s (%s, %s build%s%s)\nlibseccomp %s\n", VERDICT_VERSION, VERDICT_GIT,
           VERDICT_BUILD_TYPE, VERDICT_SANITIZE[0] ? ", sanitizers " : "", VERDICT_SANITIZE,
           sc_version(sc, sizeof(sc)));
    return 0;
}

#define HELP_OPT                                                                                   \
    {                                                                                              \
        "help", 'h', OPT_FLAG, &help, NULL, "show this help and exit", 0, 0                        \
    }

static const struct opt plain_opts[] = {HELP_OPT, OPT_END};

static const struct opt doctor_opts[] = {
    {"json", 0, OPT_FLAG, &json_out, NULL, "print the report as JSON", 0, 0},
    {"skip-toolchains", 0, OPT_FLAG, &skip_toolchains, NULL, "do not probe language toolchains", 0,
     0},
    {"skip-gpu", 0, OPT_FLAG, &skip_gpu, NULL, "do not load the CUDA runtime", 0, 0},
    {"languages", 0, OPT_STRING, &doctor_languages, "DIR", "language templates to check", 0, 0},
    HELP_OPT,
    OPT_END,
};

static const struct opt datasets_table[] = {
    {"db", 0, OPT_STRING, &db_path, "FILE", "the dataset store (env VERDICT_DB)", 0, 0},
    {"format", 0, OPT_STRING, &data_format, "NAME",
     "the source's format, when detection is not wanted", 0, 0},
    {"force", 0, OPT_FLAG, &force, NULL, "import even when the source is unchanged", 0, 0},
    {"json", 0, OPT_FLAG, &json_out, NULL, "list as JSON", 0, 0},
    HELP_OPT,
    OPT_END,
};

static const struct opt bench_table[] = {
    {"k", 'k', OPT_STRING, &bench_opts.ks, "K,K...", "pass@k for these k (default 1,10,100)", 0, 0},
    {"out", 'o', OPT_STRING, &bench_opts.out, "FILE", "write per-sample results (JSON lines)", 0,
     0},
    {"summary", 0, OPT_STRING, &bench_opts.summary, "FORMAT", "text (a table, default) or json", 0,
     0},
    {"server", 0, OPT_STRING, &bench_opts.server, "URL",
     "judge on a verdict server (http://HOST:PORT) instead of local cells", 0, 0},
    {"reference", 0, OPT_FLAG, &bench_opts.reference, NULL,
     "judge the dataset's reference solutions (no samples file)", 0, 0},
    {"language", 0, OPT_STRING, &bench_opts.language, "LANG",
     "for stdin/stdout problems, when a sample names none", 0, 0},
    {"extract", 0, OPT_FLAG, &bench_opts.extract, NULL,
     "extract code from every completion (default: only from fenced ones)", 0, 0},
    {"jobs", 'j', OPT_INT, &bench_opts.jobs, "N", "samples judged at once (default: CPUs)", 1,
     1024},
    {"db", 0, OPT_STRING, &db_path, "FILE", "the dataset store (env VERDICT_DB)", 0, 0},
    {"languages", 0, OPT_STRING, &bench_opts.languages, "DIR", "language templates", 0, 0},
    {"cache", 0, OPT_STRING, &bench_opts.cache, "DIR", "compile cache directory", 0, 0},
    {"label", 0, OPT_STRING, &bench_opts.label, "TEXT", "the run's label in the results store", 0,
     0},
    {"model", 0, OPT_STRING, &bench_opts.model, "TEXT", "the model that wrote the samples", 0, 0},
    {"no-record", 0, OPT_FLAG, &bench_opts.no_record, NULL,
     "keep no record of the run (default: the store at --db, or the server's)", 0, 0},
    {"shard", 0, OPT_STRING, &bench_opts.shard, "I/N",
     "judge only the problems whose position in the dataset is I mod N", 0, 0},
    HELP_OPT,
    OPT_END,
};

static const struct opt serve_table[] = {
    {"config", 0, OPT_STRING, &serve_opts.config, "FILE",
     "read options from FILE (name = value lines; env VERDICT_CONFIG)", 0, 0},
    {"listen", 'l', OPT_STRING, &serve_opts.listen, "HOST:PORT",
     "address to serve on (default 127.0.0.1:8080)", 0, 0},
    {"cells", 'c', OPT_INT, &serve_opts.cells, "N",
     "warm sandbox cells, i.e. programs of verdict's API run at once (default: the CPUs this "
     "server may use, its affinity and its cgroup's CPU quota)",
     1, 1024},
    {"max-cells", 0, OPT_INT, &serve_opts.max_cells, "N",
     "cells SandboxFusion's routes may grow to, so that none waits (default max(cells, 64 per "
     "core), at most 512)",
     1, 1024},
    {"max-sessions", 0, OPT_INT, &serve_opts.max_sessions, "N",
     "sessions open at once, each holding a cell (default min(32, max-cells); 0: off)", 0,
     SESSION_MAX},
    {"client-sessions", 0, OPT_INT, &serve_opts.client_sessions, "N",
     "sessions one client address may hold open (default max(1, 3/4 of max-sessions): others "
     "always find some)",
     1, SESSION_MAX},
    {"session-idle-max", 0, OPT_DURATION, &serve_opts.session_idle_max_ms, "SECONDS",
     "the most idle_ms a session may ask for (default 3600; at most 86400)", 0, 0},
    {"session-lifetime-max", 0, OPT_DURATION, &serve_opts.session_lifetime_max_ms, "SECONDS",
     "the most lifetime_ms a session may ask for (default 21600; at most 86400)", 0, 0},
    {"cell-idle", 0, OPT_DURATION, &serve_opts.cell_idle_ms, "SECONDS",
     "stop a cell beyond --cells idle this long (default 30)", 0, 0},
    {"python-warm", 0, OPT_STRING, &serve_opts.python_warm, "on|off",
     "fork Python programs from a warm interpreter in each cell (templates with \"warm\"; "
     "default on, env VERDICT_PYTHON_WARM)",
     0, 0},
    {"queue", 0, OPT_INT, &serve_opts.queue, "N", "requests waiting beyond those (default 4096)", 1,
     1000000},
    {"client-share", 0, OPT_INT, &serve_opts.client_share, "N",
     "requests one client address may have waiting, all its labels together (default "
     "max(queue/4, 64))",
     1, 1000000},
    {"queue-bytes", 0, OPT_BYTES, &serve_opts.queue_bytes, "SIZE",
     "request bytes held by waiting and running requests (default 256M; >= --max-body)", 0, 0},
    {"client-bytes", 0, OPT_BYTES, &serve_opts.client_bytes, "SIZE",
     "of those, what one client address's may hold (default max(3/4 of queue-bytes, max-body): "
     "others always find room; >= --max-body)",
     0, 0},
    {"trusted-proxy", 0, OPT_STRING, &serve_opts.trusted_proxy, "ADDR[,ADDR...]",
     "balancers (IPv4 addresses or ADDR/BITS) whose X-Forwarded-For or X-Real-IP names the "
     "client's address for the per-client shares (default: none)",
     0, 0},
    {"max-body", 0, OPT_BYTES, &serve_opts.max_body, "SIZE", "request body limit (default 16M)", 0,
     0},
    {"max-header", 0, OPT_BYTES, &serve_opts.max_header, "SIZE",
     "request line and headers limit (default 32K; larger: 431)", 0, 0},
    {"connections", 0, OPT_INT, &serve_opts.connections, "N",
     "open connections at most (default 4096)", 1, 1000000},
    {"peer-connections", 0, OPT_INT, &serve_opts.peer_connections, "N",
     "open connections from one address at most (default connections/4; behind a "
     "balancer: at least the balancer's own)",
     1, 1000000},
    {"idle-timeout", 0, OPT_DURATION, &serve_opts.idle_timeout_ms, "SECONDS",
     "close a connection idle this long: between requests, in an unfinished request, or not "
     "reading its answer (default 15; a request waiting for its reply is not idle)",
     0, 0},
    {"peer-stream-bytes", 0, OPT_BYTES, &serve_opts.peer_stream_bytes, "SIZE",
     "streamed answer bytes one address's connections may leave unread (default 64M; past it "
     "the stream is cut and its connection closed)",
     0, 0},
    {"languages", 0, OPT_STRING, &serve_opts.languages, "DIR", "language templates", 0, 0},
    {"cache", 0, OPT_STRING, &serve_opts.cache, "DIR", "compile cache directory", 0, 0},
    {"db", 0, OPT_STRING, &serve_opts.db, "FILE", "the dataset store (SQLite)", 0, 0},
    {"datasets", 0, OPT_LIST, &serve_opts.datasets, "DIR",
     "import the datasets found under DIR at start (repeatable; unchanged ones are skipped)", 0, 0},
    {"store", 0, OPT_STRING, &serve_opts.store, "FILE|off",
     "keep every judged request and benchmark run in FILE (SQLite; default: the --db file), or "
     "not (off)",
     0, 0},
    {"retain-rows", 0, OPT_INT, &serve_opts.retain_rows, "N",
     "submissions the store keeps, newest first (default 100000; -1: no cap)", -1, 1000000000},
    {"retain-days", 0, OPT_INT, &serve_opts.retain_days, "D",
     "days the store keeps submissions and runs (default 30; -1: no age limit)", -1, 100000},
    {"dashboard-token", 0, OPT_STRING, &serve_opts.dashboard_token, "TOKEN",
     "required by the dashboard and the store's routes (always beyond loopback; env "
     "VERDICT_DASHBOARD_TOKEN)",
     0, 0},
    HELP_OPT,
    OPT_END,
};

static const struct opt run_table[] = {
    {"time", 't', OPT_DURATION, &run_opts.cpu_ms, "SECONDS", "CPU time limit (default 2)", 0, 0},
    {"wall", 'w', OPT_DURATION, &run_opts.wall_ms, "SECONDS",
     "wall-clock limit (default 3 x time + 1)", 0, 0},
    {"mem", 'm', OPT_BYTES, &run_opts.memory_bytes, "SIZE", "memory limit (default 256M)", 0, 0},
    {"output", 0, OPT_BYTES, &run_opts.output_bytes, "SIZE",
     "stdout and stderr capture limit each (default 16M)", 0, 0},
    {"pids", 0, OPT_INT, &run_opts.pids, "N", "processes and threads (default 64)", 1, 65536},
    {"stdin", 'i', OPT_STRING, &run_opts.stdin_path, "FILE", "feed FILE to stdin", 0, 0},
    {"file", 'f', OPT_LIST, &run_opts.files, "PATH", "copy a host file into the work dir", 0, 0},
    {"env", 'e', OPT_LIST, &run_opts.env, "NAME=VALUE", "set an environment variable", 0, 0},
    {"fetch", 0, OPT_LIST, &run_opts.fetch, "PATH", "return a work-dir file (with --json)", 0, 0},
    {"json", 0, OPT_FLAG, &json_out, NULL, "print the result as JSON", 0, 0},
    {"lang", 'l', OPT_STRING, &run_opts.lang, "LANG",
     "compile and run a source file in LANG (name or alias)", 0, 0},
    {"languages", 0, OPT_STRING, &run_opts.languages, "DIR", "language templates", 0, 0},
    {"cache", 0, OPT_STRING, &run_opts.cache, "DIR", "compile cache directory", 0, 0},
    HELP_OPT,
    OPT_END,
};

static const struct command commands[] = {
    {"serve",
     "Serve the HTTP API (SandboxFusion-compatible /run_code, /v1/ping, /v1/languages,\n"
     "/healthz) on 127.0.0.1:8080 until SIGTERM or SIGINT.\n"
     "Every option may also come from a --config file (name = value lines) or a VERDICT_NAME\n"
     "variable (VERDICT_MAX_BODY=32M); the command line wins over the environment, which wins\n"
     "over the file.",
     "[--listen HOST:PORT] [--cells N] [options]", serve_table, "VERDICT_", cmd_serve},
    {"run",
     "Run one program in a sandbox cell and print its output and result.\n"
     "Exit status: 0 OK, 1 another verdict (RE, TLE, MLE, OLE), 3 sandbox error.",
     "[options] -- PROGRAM [ARGS...]  |  verdict run --lang LANG [options] FILE", run_table, NULL,
     cmd_run},
    {"bench",
     "Judge a file of samples (JSON lines: task_id, completion) against a dataset and report\n"
     "pass@k, the verdict mix and per-sample results. Judges in local cells (root) or on a\n"
     "server. Exit status: 0 done, 1 error, 3 some sample met a sandbox error, 130 interrupted.",
     "[options] DATASET SAMPLES.jsonl  |  verdict bench --reference DATASET", bench_table, NULL,
     cmd_bench},
    {"datasets",
     "Import benchmark datasets into the store, or list them.\n"
     "  import NAME PATH   a jsonl, jsonl.gz or json file, or a directory of problem directories\n"
     "  import DIR         every dataset found under DIR, named by its path\n"
     "  list               the imported datasets",
     "import NAME PATH | import DIR | list  [--db FILE] [--format NAME] [--force]", datasets_table,
     NULL, cmd_datasets},
    {"doctor",
     "Inspect this host: namespaces, cgroups, seccomp, pivot_root, a real cell, toolchains,\n"
     "languages, GPUs.\n"
     "Exits 0 when the host can run sandboxed jobs, 1 otherwise (with the reason).",
     "[--json] [--skip-toolchains] [--skip-gpu] [--languages DIR]", doctor_opts, NULL, cmd_doctor},
    {"version", "Print verdict's version and build.", "", plain_opts, NULL, cmd_version},
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void print_usage(FILE *out)
{
    fprintf(out, "usage: verdict COMMAND [options]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++) {
        size_t len = strcspn(commands[i].summary, "\n");
        fprintf(out, "  %-9s %.*s\n", commands[i].name, (int)len, commands[i].summary);
    }
    fprintf(out, "\nRun 'verdict COMMAND --help' for a command's options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "verdict: missing command\n");
        print_usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(name, "--version") == 0)
        name = "version";
    if (strcmp(name, "__cell") == 0 && argc == 3) /* internal: a sandbox cell (runners/cell.h) */
        return cell_main(atoi(argv[2]));
    for (size_t i = 0; i < NCOMMANDS; i++) {
        const struct command *cmd = &commands[i];
        if (strcmp(cmd->name, name) != 0)
            continue;
        int rc = 0, first = parse_flags(cmd, argc - 1, argv + 1, &rc);
        return first < 0 ? rc : cmd->fn(cmd, argc - 1, argv + 1, first);
    }
    fprintf(stderr, "verdict: unknown command '%s'\n", name);
    print_usage(stderr);
    return EXIT_USAGE;
}
