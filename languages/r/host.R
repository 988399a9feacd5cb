# The program's side of the grader's channel (runners/job.h: fd 3 in, fd 4 out, through cat),
# after wire.R, sourced as `verdict_host.R` at the end of the program (r.json's join). It holds
# no secret and decides nothing: it answers each {"call":NAME,"args":[...]} with {"ok":V} or
# {"raise":TYPE,"message":TEXT}, and the grader trusts nothing it says beyond the values it
# carries.

local({
    ch <- .verdict_open()
    repeat {
        line <- .verdict_read(ch)
        if (is.null(line)) break
        out <- tryCatch({
            req <- .verdict_decode(line, TRUE)
            if (!identical(names(req), c("call", "args")) || !is.character(req$call) || !is.list(req$args))
                stop("a request that is not a call")
            f <- get(req$call, envir = globalenv(), mode = "function")
            paste0("{\"ok\":", .verdict_encode(do.call(f, req$args)), "}")
        }, error = function(e) {
            paste0("{\"raise\":", .verdict_string(class(e)[[1]]), ",\"message\":",
                   .verdict_string(substr(conditionMessage(e), 1L, 2000L)), "}")
        })
        flush(stdout())
        .verdict_write(ch, out)
    }
})
