/*
 * judge: one program against a list of tests, compiled once, each test a verdict (enum
 * verdict), and a reward; the one judging path of every route (/run_code, /v1/judge, batch
 * items, /submit) and of `verdict bench`.
 *
 * The request and the result are plain data, built and read by the caller: the API edge
 * (server/http/request, server/http/render) turns JSON into a judge_request and a
 * judge_result into JSON; nothing here knows JSON.
 *
 * Tests are stdin/expected pairs compared by server/judge/compare (or a checker program), a
 * harness (test code: run by the language's grader, out of the program's reach, where the
 * language has one; rewritten by server/judge/seal for the compiled languages it knows, the
 * program passing by exiting 0 with seal's marker line; else joined after the code, the
 * program passing by exiting 0), or one plain run (`run_only`: /run_code, whose verdict is
 * the run's own). Every result says which of these decided it (enum judge_grading).
 */
#ifndef VERDICT_JUDGE_H
#define VERDICT_JUDGE_H

#include "server/judge/compare.h"
#include "server/judge/lang.h"
#include "server/judge/program.h"
#include "server/judge/verdict.h"

#define JUDGE_MAX_TESTS 1024 /* tests in one request */
#define JUDGE_MAX_FILES 256  /* files a request places in the work dir, besides the source */
#define JUDGE_MAX_FETCH 64   /* distinct work-dir files a request asks back */
#define JUDGE_EXCERPT   512  /* bytes of stdout/stderr kept per test (not for run_only) */
/* A checker's own files (its scorer context), placed in its work dir beside input.txt,
 * output.txt and answer.txt for every test it checks: how many, and their bytes together. */
#define JUDGE_MAX_CHECKER_FILES 16
#define JUDGE_CHECKER_FILES_MAX (4u << 20)

struct judge_test {
    uint8_t *in; /* stdin (heap; NULL: empty) */
    size_t in_len;
    uint8_t *want; /* the expected output (heap; NULL for run_only and harness runs) */
    size_t want_len;
};

/* A whole request. Every pointer is heap and owned by the request (judge_request_free). */
struct judge_request {
    const struct lang *lang;
    char *code;             /* the program's source */
    char *harness;          /* test code, or NULL (see judge_run) */
    char *harness_setup;    /* with a grader: code the tests see, run by the grader only; NULL */
    char *entry_point;      /* with a grader: a name the tests call that the program defines,
                               even where the setup defines it too; NULL */
    int nfiles;             /* work-dir files besides the source, at most JUDGE_MAX_FILES */
    struct job_file *files; /* JUDGE_MAX_FILES slots; paths and data owned by the request */
    int ntests;             /* 1 for a harness or run_only */
    struct judge_test *tests;
    bool *selected; /* ntests flags: which tests run ("only") */
    struct cmp_spec cmp;
    const struct lang *checker_lang; /* CMP_CHECKER */
    char *checker_code;
    size_t checker_len;
    int nchecker_files;               /* at most JUDGE_MAX_CHECKER_FILES */
    struct job_file *checker_files;   /* the checker's context files (heap); paths and data owned */
    struct job_limits limits;         /* per run; zero fields: the language's */
    struct job_limits compile_limits; /* zero fields: the template's */
    bool all_or_nothing, stop_on_failure;
    bool run_only;          /* one run, its whole output kept, no comparison (/run_code) */
    bool allow_exit_status; /* the client accepts a harness judged by exit status (a language
                               without a grader or seal): request.c refuses one otherwise */
    int nfetch;             /* distinct paths, at most JUDGE_MAX_FETCH */
    char **fetch;           /* work-dir files returned by the run (run_only) */
};

/* An empty request (calloc'd with room for files and fetch paths), or NULL. */
struct judge_request *judge_request_new(void);

/* Adds a work-dir file: path copied, data consumed (freed on failure too). Returns 0, or
 * -E2BIG past JUDGE_MAX_FILES, -ENOMEM. */
int judge_add_file(struct judge_request *r, const char *path, uint8_t *data, size_t len);

/* Adds a path to fetch back, ignoring one already asked for. Returns 0, -E2BIG past
 * JUDGE_MAX_FETCH, -ENOMEM. */
int judge_add_fetch(struct judge_request *r, const char *path);

void judge_request_free(struct judge_request *r);

/* How a result's tests were decided, from the request and its language at run time
 * (judge_grading_of; docs/integrity/grading.md has the table per language). */
enum judge_grading {
    JUDGE_GRADING_NONE,        /* run_only: no test decides (/run_code, /run_jupyter) */
    JUDGE_GRADING_ISOLATED,    /* a harness run by the language's grader, a process the
                                  program never runs in; the grader's exit status decides */
    JUDGE_GRADING_OUTPUT,      /* stdin/expected tests: stdout compared (or checked by a
                                  checker job) outside the program's sandbox */
    JUDGE_GRADING_IN_PROCESS,  /* a harness sealed by server/judge/seal: the tests in the
                                  program's process, a pass needs exit 0 and seal's marker */
    JUDGE_GRADING_EXIT_STATUS, /* a harness joined after the code: any exit 0 passes */
    JUDGE_GRADING_COUNT
};

/* "none", "isolated", "output", "in-process", "exit-status" ("?" out of range; never NULL). */
const char *judge_grading_name(enum judge_grading g);

/* The grading named s (exact). Returns 0, or -EINVAL for an unknown name. */
int judge_grading_parse(const char *s, enum judge_grading *g);

/* How judge_run means to decide r: a harness as judge_harness_grading says (a compiled
 * grader's harness without an entry point as the language's in-process kind: its grader
 * cannot be planned), tests by their output; NONE for run_only. The result's grading is what
 * was done: a compiled grader that cannot be planned or does not compile (graded.h) leaves the
 * request in-process. EXIT_STATUS here is final: judge_run never falls back to it later. */
enum judge_grading judge_grading_of(const struct judge_request *r);

/* How a harness in language l is decided: ISOLATED where it has a grader (a compiled one
 * unless VERDICT_COMPILED_GRADERS=off), IN_PROCESS where seal has a rule for it, else
 * EXIT_STATUS (/v1/languages says it per language). */
enum judge_grading judge_harness_grading(const struct lang *l);

struct judge_fetched {
    char *path;    /* heap */
    int error;     /* 0, or a negative errno (-ELOOP a link, -EFBIG too big, -ENOENT ...) */
    uint8_t *data; /* heap, when error == 0 */
    size_t len;
};

/* Why a test's run was run again (judge.c's rerun_reason): the load spoiled it, or the
 * sandbox failed. Never the program's doing: its verdict is the last run's. */
enum judge_rerun {
    JUDGE_RERUN_NONE,
    JUDGE_RERUN_STARVED,   /* stopped at the backstop within its limits, waiting for a CPU */
    JUDGE_RERUN_CONTENDED, /* a CPU TLE while its tasks waited for a CPU: once more */
    JUDGE_RERUN_SANDBOX,   /* SE: the sandbox failed */
    JUDGE_RERUN_COUNT
};

/* "starved", "contended", "sandbox" (NULL for NONE or out of range). */
const char *judge_rerun_name(enum judge_rerun r);

struct judge_test_result {
    int index; /* the test's index in the request */
    enum verdict verdict;
    int exit_code, signal;
    int64_t cpu_ms, wall_ms; /* ms */
    uint64_t memory_kib;     /* peak, KiB */
    int64_t instructions;    /* user-mode instructions retired; <= 0: not counted */
    enum job_clock limit;    /* the limit a TLE ran into (JOB_CLOCK_NONE otherwise) */
    int reruns;              /* runs of this test the judge discarded and ran again */
    enum judge_rerun rerun;  /* why the last of them was run again (JUDGE_RERUN_NONE: none) */
    bool stdout_truncated, stderr_truncated;
    uint8_t *out; /* stdout: an excerpt of JUDGE_EXCERPT bytes, or whole for run_only (heap) */
    size_t out_len;
    uint8_t *err; /* stderr, likewise */
    size_t err_len;
    char reason[CMP_WHY + 64]; /* why it is not OK ("" when OK) */
    int nfetched;
    struct judge_fetched *fetched; /* heap (run_only) */
};

struct judge_compile {
    bool compiled_language; /* the language has a compile step */
    bool built;             /* program_build answered (false: SE before any verdict) */
    enum verdict verdict;   /* OK, CE, TLE or MLE (the compile's own limits) */
    bool cached;            /* served from the compile cache */
    int64_t wall_ms;        /* the compile's wall time, ms, when it ran */
    char *output;           /* the compiler's message (heap) or NULL */
};

struct judge_result {
    /* OK: the program was built and its tests ran (each has a verdict); CE, TLE, MLE: the
     * compile failed so; SE: ours (sandbox, checker, no GPU): message says why. */
    enum verdict status;
    enum judge_grading grading; /* how the tests were (or, had they run, would be) decided */
    char message[ERR_LEN + 64];
    struct judge_compile compile;
    char *checker_output; /* the checker's compiler message when it did not build (heap) */
    double reward;        /* passed / total, or all-or-nothing */
    int passed, total, ran;
    int ntests; /* results, in the order run */
    struct judge_test_result *tests;
};

/* Judges r (in a worker: it runs programs; blocks until done) into res, which the caller
 * releases with judge_result_fini whatever happened. Never fails: faults are SE in res. */
void judge_run(const struct program_env *env, const struct judge_request *r,
               struct judge_result *res);

void judge_result_fini(struct judge_result *res);

/* The verdict of a whole result, as a sample is scored: OK when every selected test passed,
 * else the first failing test's verdict (*test its index, -1 for none), or the compile's /
 * SE; WA when no test ran. *reason borrowed from res. */
enum verdict judge_outcome(const struct judge_result *res, int *test, const char **reason);

#endif
