"""Wrong Racket, R and bash solutions that try to get reward 1 from MultiPL-E's harnesses
(`multiple_<lang>` and `multiple_mbpp_<lang>` through /submit) and from /v1/judge with a
`harness`. Each attack is a short program with a comment saying what it tries; none may pass
(no reward 1, no accepted flag, no test passed), and none may end as SE. The honest solution
of every problem attacked passes (the controls), so an attack fails for its own reason."""
import json

import pytest

from conftest import assert_accepted, assert_refused, code, in_parallel, judge_batch, submit

# ---- Racket ----------------------------------------------------------------------------------

RKT_HE0 = ("multiple_rkt", "HumanEval_0_has_close_elements")
RKT_MB3 = ("multiple_mbpp_rkt", "mbpp_3_is_not_prime")
RKT_MB4 = ("multiple_mbpp_rkt", "mbpp_4_heap_queue_largest")

RKT_HONEST = {
    RKT_HE0: code('''
        #lang racket
        (define (has_close_elements numbers threshold)
          (for*/or ([(a i) (in-indexed numbers)] [(b j) (in-indexed numbers)])
            (and (< i j) (< (abs (- a b)) threshold))))
    '''),
    RKT_MB3: code('''
        #lang racket
        (define (is_not_prime n)
          (or (< n 2) (for/or ([d (in-range 2 n)]) (zero? (modulo n d)))))
    '''),
    RKT_MB4: code('''
        #lang racket
        (define (heap_queue_largest nums n)
          (take (sort nums >) n))
    '''),
}

RKT_ATTACKS = [
    # ---- plain wrong answers: rackunit's checks outside a test case print FAILURE and carry on
    ("rkt_constant_true", RKT_HE0, code("""
        #lang racket
        (define (has_close_elements numbers threshold) #t)
    """)),
    ("rkt_constant_false", RKT_MB3, code("""
        #lang racket
        (define (is_not_prime n) #f)
    """)),
    ("rkt_constant_list", RKT_MB4, code("""
        #lang racket
        (define (heap_queue_largest nums n) (list 85 75 65))
    """)),
    ("rkt_raises", RKT_MB3, code("""
        #lang racket
        (define (is_not_prime n) (error "no idea"))  ; rackunit reports ERROR and carries on
    """)),
    ("rkt_fake_pass_output", RKT_MB3, code("""
        #lang racket
        (define (is_not_prime n)
          (displayln "All tests passed")  ; printed text decides nothing
          #f)
    """)),
    # ---- early exits
    ("rkt_exit_at_load", RKT_MB3, code("""
        #lang racket
        (define (is_not_prime n) #f)
        (exit 0)  ; before the tests run
    """)),
    ("rkt_exit_in_call", RKT_HE0, code("""
        #lang racket
        (define (has_close_elements numbers threshold) (exit 0))
    """)),
    ("rkt_exit_handler", RKT_MB3, code("""
        #lang racket
        (define (is_not_prime n) #f)
        (let ([really (exit-handler)])  ; every exit, a failing one too, becomes exit 0
          (exit-handler (lambda (code) (really 0))))
    """)),
    ("rkt_plumber_exit", RKT_MB3, code("""
        #lang racket
        (define (is_not_prime n) #f)
        (plumber-add-flush! (current-plumber) (lambda (h) (exit 0)))  ; at exit, exit 0
    """)),
    ("rkt_executor_thread_exit", RKT_HE0, code("""
        #lang racket
        (define (has_close_elements numbers threshold) #t)
        (void (thread (lambda () (sleep 0.2) (exit 0))))  ; exit 0 while the checks run
    """)),
    # ---- replacing the framework
    ("rkt_check_around", RKT_MB3, code("""
        #lang racket
        (require rackunit)
        (define (is_not_prime n) #f)
        (current-check-around (lambda (check) (void)))  ; no check runs
    """)),
    ("rkt_check_handler", RKT_MB4, code("""
        #lang racket
        (require rackunit)
        (define (heap_queue_largest nums n) '())
        (current-check-handler void)  ; failures go nowhere
    """)),
    ("rkt_shadow_check_within", RKT_MB3, code("""
        #lang racket
        (define (is_not_prime n) #f)
        (define-syntax-rule (check-within a b c) (void))
    """)),
    # ---- rigged equality: a value equal to everything
    ("rkt_equal_to_everything", RKT_MB4, code("""
        #lang racket
        (struct always ()
          #:property prop:equal+hash
          (list (lambda (a b rec) #t) (lambda (a rec) 0) (lambda (a rec) 0)))
        (define (heap_queue_largest nums n) (always))
    """)),
    ("rkt_impersonated_list", RKT_MB4, code("""
        #lang racket
        (struct fake (v) #:transparent
          #:property prop:procedure (lambda (self . args) (fake-v self)))
        (define (heap_queue_largest nums n) (fake (list 85 75 65)))
    """)),
    # ---- reading the tests: their expected values from the program's own file
    ("rkt_answers_from_source", RKT_MB4, code("""
        #lang racket
        (define (answers)
          (with-handlers ([(lambda (e) #t) (lambda (e) '())])
            (for*/list ([f '("main.rkt" "/proc/self/cwd/main.rkt")]
                        #:when (file-exists? f)
                        [form (in-port read (open-input-file f))]
                        #:when (and (pair? form) (eq? (car form) 'define))
                        [c (flatten form)])
              c)))
        (define (heap_queue_largest nums n)
          (let ([seen (answers)])  ; the tests' numbers, if they were in the file
            (if (member 85 seen) (take (sort nums >) n) '())))
    """)),
    ("rkt_grader_stdin", RKT_HE0, code("""
        #lang racket
        (define (has_close_elements numbers threshold)
          (for/or ([p (directory-list "/proc")])  ; the grader's stdin holds the tests
            (with-handlers ([(lambda (e) #t) (lambda (e) #f)])
              (regexp-match? #rx"check-within"
                             (file->string (build-path "/proc" p "fd" "0"))))))
    """)),
    # ---- killing or stopping the grader, flooding or forging the channel
    ("rkt_kill_all", RKT_HE0, code("""
        #lang racket
        (define (has_close_elements numbers threshold)
          (system "kill -9 -1; pkill -9 racket")
          #t)
    """)),
    ("rkt_stop_parent", RKT_HE0, code("""
        #lang racket
        (define (has_close_elements numbers threshold)
          (system "kill -STOP $PPID; kill -STOP 1")
          #t)
    """)),
    ("rkt_flood_channel", RKT_MB3, code("""
        #lang racket
        (require ffi/unsafe/port)
        (define (is_not_prime n)
          (define out (unsafe-file-descriptor->port 4 'out '(write)))
          (for ([i 2000]) (write-bytes (make-bytes 65536 65) out))  ; no newline: 128 MiB
          (flush-output out)
          #f)
    """)),
    ("rkt_answers_in_advance", RKT_MB3, code("""
        #lang racket
        (require ffi/unsafe/port)
        (define out (unsafe-file-descriptor->port 4 'out '(write)))
        (for ([i 100]) (write-string "{\\"ok\\":true}\\n" out))  ; answers before any call
        (flush-output out)
        (exit 0)
        (define (is_not_prime n) #t)
    """)),
    ("rkt_exhaust_memory", RKT_MB3, code("""
        #lang racket
        (define hog (for/list ([i 100]) (make-bytes 8000000)))  ; before the grader starts
        (define (is_not_prime n) #f)
    """)),
]

# ---- R ---------------------------------------------------------------------------------------

R_HE0 = ("multiple_r", "HumanEval_0_has_close_elements")
R_MB3 = ("multiple_mbpp_r", "mbpp_3_is_not_prime")
R_MB4 = ("multiple_mbpp_r", "mbpp_4_heap_queue_largest")

R_HONEST = {
    R_HE0: code("""
        has_close_elements <- function(numbers, threshold) {
          d <- abs(outer(numbers, numbers, "-"))
          diag(d) <- Inf
          any(d < threshold)
        }
    """),
    R_MB3: code("""
        is_not_prime <- function(n) {
          if (n < 4) return(n < 2)
          any(n %% 2:(n - 1) == 0)
        }
    """),
    R_MB4: code("""
        heap_queue_largest <- function(nums, n) {
          sort(nums, decreasing = TRUE)[1:n]
        }
    """),
}

R_ATTACKS = [
    ("r_constant_true", R_HE0, "has_close_elements <- function(numbers, threshold) TRUE\n"),
    ("r_constant_false", R_MB3, "is_not_prime <- function(n) FALSE\n"),
    ("r_raises", R_MB3, "is_not_prime <- function(n) stop('no idea')\n"),
    ("r_stopifnot_redefined", R_MB3, code("""
        is_not_prime <- function(n) FALSE
        stopifnot <- function(...) invisible(TRUE)  # every check passes
    """)),
    ("r_istrue_redefined", R_MB4, code("""
        heap_queue_largest <- function(nums, n) 0
        isTRUE <- function(x) TRUE
        all.equal <- function(...) TRUE
    """)),
    ("r_quit_at_load", R_MB3, "is_not_prime <- function(n) FALSE\nquit(status = 0)\n"),
    ("r_quit_in_call", R_HE0, "has_close_elements <- function(numbers, threshold) quit(status = 0)\n"),
    ("r_on_exit_quit", R_MB3, code("""
        is_not_prime <- function(n) {
          on.exit(quit(status = 0))  # the failed stopifnot unwinds through here
          FALSE
        }
    """)),
    ("r_finalizer_quit", R_MB3, code("""
        is_not_prime <- function(n) FALSE
        reg.finalizer(globalenv(), function(e) quit(status = 0, runLast = FALSE), onexit = TRUE)
        .Last <- function() quit(status = 0, runLast = FALSE)
        options(error = function() quit(status = 0))  # an error at top level: exit 0
    """)),
    ("r_rigged_class", R_MB3, code("""
        all.equal.rigged <- function(target, current, ...) TRUE
        isTRUE <- function(x) TRUE
        is_not_prime <- function(n) structure(FALSE, class = "rigged")
    """)),
    ("r_rigged_names", R_MB4, code("""
        heap_queue_largest <- function(nums, n) structure(list(), class = "data.frame")
    """)),
    ("r_answers_from_source", R_MB4, code("""
        heap_queue_largest <- function(nums, n) {
          src <- tryCatch(readLines("main.R"), error = function(e) "")
          if (any(grepl(paste0("candi", "date(c(25"), src, fixed = TRUE))))
            sort(nums, decreasing = TRUE)[1:n] else 0  # right only where it saw the tests
        }
    """)),
    ("r_kill_all", R_HE0, code("""
        has_close_elements <- function(numbers, threshold) {
          system("kill -9 -1; pkill -9 -f Rscript")
          TRUE
        }
    """)),
    ("r_answers_in_advance", R_MB3, code("""
        system("for i in $(seq 100); do echo '{\\"ok\\":true}'; done >&4")
        quit(status = 0)
        is_not_prime <- function(n) TRUE
    """)),
    ("r_garbage_answer", R_MB3, code("""
        is_not_prime <- function(n) {
          system("printf '{\\"ok\\":true}{\\"ok\\":true}\\\\n' >&4")
          FALSE
        }
    """)),
    ("r_fake_pass_output", R_MB3, "is_not_prime <- function(n) { cat('All tests passed\\n'); FALSE }\n"),
]

# ---- bash ------------------------------------------------------------------------------------

SH_HE0 = ("multiple_sh", "HumanEval_0_has_close_elements")
SH_MB3 = ("multiple_mbpp_sh", "mbpp_3_is_not_prime")
SH_MB4 = ("multiple_mbpp_sh", "mbpp_4_heap_queue_largest")

SH_HONEST = {
    SH_HE0: code("""
        #!/bin/bash
        has_close_elements() {
            echo "$1" | awk -v t="$2" '{ for (i = 1; i <= NF; i++) for (j = i + 1; j <= NF; j++) {
                d = $i - $j; if (d < 0) d = -d; if (d < t) { print "true"; exit } }
                print "false" }'
        }
    """),
    SH_MB3: code("""
        #!/bin/bash
        is_not_prime() {
            local n=$1 d
            for ((d = 2; d * d <= n; d++)); do
                if ((n % d == 0)); then echo true; return; fi
            done
            if ((n < 2)); then echo true; else echo false; fi
        }
    """),
    SH_MB4: code("""
        #!/bin/bash
        heap_queue_largest() {
            echo $(tr ' ' '\\n' <<< "$1" | sort -rn | head -n "$2")
        }
    """),
}

SH_ATTACKS = [
    ("sh_constant_true", SH_HE0, "has_close_elements() { echo true; }\n"),
    ("sh_constant_false", SH_MB3, "is_not_prime() { echo false; }\n"),
    ("sh_exit_at_load", SH_MB3, "is_not_prime() { echo false; }\nexit 0\n"),
    ("sh_trap_exit", SH_MB3, "is_not_prime() { echo false; }\ntrap 'exit 0' EXIT  # the failed [[ exits 1: make it 0\n"),
    ("sh_readonly_run_test", SH_MB3, code("""
        is_not_prime() { echo false; }
        run_test() { :; }
        readonly -f run_test  # the tests cannot define theirs: ours checks nothing
    """)),
    ("sh_alias_set", SH_MB4, code("""
        heap_queue_largest() { echo "85 75 65 58 35"; }  # right for the last check only
        shopt -s expand_aliases
        alias set=:  # the tests' `set -e` does nothing: only the last check counts
    """)),
    ("sh_readonly_candidate", SH_MB3, code("""
        is_not_prime() { echo false; }
        candidate() { case $1 in 10|35) echo true ;; *) echo false ;; esac; }
        readonly -f candidate  # the tests' candidate cannot replace this one
    """)),
    ("sh_answers_from_source", SH_MB4, code("""
        heap_queue_largest() {  # the expected answer written after the call in main.sh
            grep -F "candidate \\"$1\\" \\"$2\\")" main.sh 2>/dev/null | sed -E 's/.*= "(.*)" \\]\\]/\\1/'
        }
    """)),
    ("sh_kill_all", SH_HE0, "has_close_elements() { kill -9 -1; pkill -9 bash; echo true; }\n"),
    ("sh_stop_all", SH_HE0, "has_close_elements() { kill -STOP -1; echo true; }\n"),
    ("sh_answers_in_advance", SH_MB3, code("""
        for i in $(seq 100); do echo '{"ok":{"tuple":["true",0]}}'; done >&4
        exit 0
    """)),
    ("sh_garbage_answer", SH_MB3, code("""
        is_not_prime() { printf 'garbage\\n' >&4; echo false; }
    """)),
    ("sh_flood_channel", SH_MB3, code("""
        is_not_prime() { head -c 80000000 /dev/zero | tr '\\0' a >&4; echo false; }
    """)),
    ("sh_fake_pass_output", SH_MB3, "is_not_prime() { echo 'All tests passed' >&2; echo maybe; }\n"),
]

FENCES = {"rkt": "racket", "r": "r", "sh": "bash"}


def lang_of(ds):
    return ds.rsplit("_", 1)[1]


def jobs():
    out = []
    for attacks, honest in ((RKT_ATTACKS, RKT_HONEST), (R_ATTACKS, R_HONEST), (SH_ATTACKS, SH_HONEST)):
        out += [(name, ds, pid, src) for name, (ds, pid), src in attacks]
        out += [(f"honest {ds} {pid}", ds, pid, src) for (ds, pid), src in honest.items()]
    return out


# /v1/judge with a harness in each language: a bare harness (no dataset), entry point named.
JUDGE = {
    "racket": ("double", "#lang racket\n(define (double x) (* 2 x))\n",
               "#lang racket\n(define (double x) 4)\n",
               "(require rackunit)\n(check-equal? (double 2) 4)\n(check-equal? (double 2.5) 5.0)\n"
               "(check-equal? (double -5) -10)\n"),
    "r": ("double", "double <- function(x) 2 * x\n", "double <- function(x) 4\n",
          "stopifnot(isTRUE(all.equal(double(2), 4)))\nstopifnot(identical(double(2L), 4))\n"
          "stopifnot(isTRUE(all.equal(double(c(1, -5)), c(2, -10))))\n"),
    "bash": ("double", "double() { echo $(($1 * 2)); }\n", "double() { echo 4; }\n",
             "set -e\n[[ $(double 2) = 4 ]]\n[[ $(double -5) = -10 ]]\n"),
}


@pytest.fixture(scope="module")
def outcomes(srv):
    """Every attack and control of this module, judged at once: {name: result}."""
    listed = srv.get_json("/v1/languages")
    langs = {l["name"]: l["available"] for l in (listed if isinstance(listed, list) else listed["languages"])}
    if not all(langs.get(l) for l in ("racket", "r", "bash")):
        pytest.skip(f"a language is unavailable (probes time out under load): {langs}")
    js = jobs()
    send = lambda name, ds, pid, src: submit(srv, ds, pid, src, FENCES[lang_of(ds)])
    got = dict(zip([j[0] for j in js], in_parallel(send, js)))
    # A run the server stopped as starved by the host's load is no verdict (SE, the server's
    # own): sent again, one at a time. Racket's grader and program are two Racket starts (about
    # 3 s of CPU): four at once on a loaded two-core host can starve.
    for _ in range(2):
        for j in js:
            if "starved by load" in json.dumps(got[j[0]]):
                got[j[0]] = send(*j)
    bodies = {}
    for lang, (entry, good, bad, tests) in JUDGE.items():
        bodies[f"judge honest {lang}"] = {"language": lang, "code": good, "harness": tests,
                                          "entry_point": entry}
        bodies[f"judge wrong {lang}"] = {"language": lang, "code": bad, "harness": tests,
                                         "entry_point": entry}
    got.update(judge_batch(srv, bodies))
    return got


ATTACK_NAMES = [j[0] for j in jobs() if not j[0].startswith("honest")]


@pytest.mark.parametrize("name", ATTACK_NAMES + [f"judge wrong {l}" for l in JUDGE])
def test_attack_fails(outcomes, name):
    assert_refused(outcomes[name])


@pytest.mark.parametrize("name", [j[0] for j in jobs() if j[0].startswith("honest")]
                         + [f"judge honest {l}" for l in JUDGE])
def test_honest_passes(outcomes, name):
    assert_accepted(outcomes[name])


def test_graded_out_of_process(outcomes):
    """Each language's harness ran in its grader: a failed check is WA with the grader's
    reason, never the program's exit status."""
    for lang in ("rkt", "r", "sh"):
        res = outcomes[f"{lang}_constant_false" if lang != "rkt" else "rkt_constant_false"]
        tests = res.get("extra", {}).get("judge", {}).get("tests") or []
        assert tests and tests[0]["verdict"] == "WA", res
        assert "check failed" in tests[0]["reason"], res
