# verdict's grader for R harnesses (docs/integrity.md), after wire.R. It runs in a process of its
# own, as another uid than the program (runners/job.h), with the tests on its stdin: the program
# can neither read the tests nor reach this process. The tests run here, with base R's own
# stopifnot, all.equal and isTRUE, in an environment where the entry point is a function that
# sends each call over the channel (fd 4 out, fd 3 in, through cat) and decodes the answer with
# wire.R.
# ARGS (from the bootstrap in r.json): the tests, the setup (code run before them), the entry.
# Exit status: 0 the tests ran to their end; 1 a check failed (stopifnot, or the tests' own code
# raising on the program's answers); 2 the program broke a call: it raised, exited, closed its
# channel or answered out of protocol (and once broken, the grader quits at once: no handler
# of the tests can catch it).

.verdict_grader <- function(tests, setup, entry) {
    ch <- .verdict_open()
    broke <- function(why) {
        cat("verdict grader: ", why, "\n", sep = "", file = stderr())
        quit(save = "no", status = 2L, runLast = FALSE)
    }
    call <- function(name, args) {
        req <- tryCatch(paste0("{\"call\":", .verdict_string(name), ",\"args\":",
                               .verdict_encode(unname(args)), "}"),
                        verdict_wire_error = function(e) stop(conditionMessage(e), call. = FALSE))
        ok <- tryCatch({ .verdict_write(ch, req); TRUE }, error = function(e) FALSE)
        if (!ok) broke("the program stopped serving (it exited or closed its channel)")
        line <- .verdict_read(ch)
        if (is.null(line)) broke("the program stopped serving (it exited or closed its channel)")
        ans <- tryCatch(.verdict_decode(line, TRUE), error = function(e)
            broke(paste("the program answered with what is not a value:", conditionMessage(e))))
        if (identical(names(ans), "ok")) return(ans[["ok"]])
        if (identical(names(ans), c("raise", "message")) && is.character(ans$raise) && is.character(ans$message))
            broke(paste0("the program raised ", ans$raise, ": ", ans$message))
        broke("the program answered out of protocol")
    }
    env <- new.env(parent = globalenv())
    status <- tryCatch({
        if (nzchar(setup)) eval(parse(text = setup, keep.source = FALSE), env)
        if (nzchar(entry)) assign(entry, function(...) call(entry, list(...)), envir = env)
        eval(parse(text = tests, keep.source = FALSE), env)
        0L
    }, error = function(e) {
        cat("Error: ", conditionMessage(e), "\n", sep = "", file = stderr())
        1L
    })
    quit(save = "no", status = status, runLast = FALSE)
}

do.call(.verdict_grader, as.list(ARGS))
