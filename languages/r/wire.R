# verdict's typed wire for R (languages/wire.md), sourced before grader.R (the grader) and
# host.R (the program's side), with base R only. R has no scalars, so a value keeps its R type:
#   NULL                           <-> null
#   logical/integer/double/character vector of length 1, no NA, no names
#                                  <-> true/false, integer, float, string
#   any other such vector          <-> {"tuple":["logical"|"integer"|"double"|"character",
#                                       [elements, NA as null], [names] or null]}
#   unnamed list                   <-> [values]
#   named list                     <-> {"map":[["name",value],...]}
# Any other value (a factor, a matrix, a data frame, an object with a class or other
# attributes, a function, an environment) is refused. Decoding builds only these values and
# never evaluates what it reads. Nesting: at most 100 levels.

.verdict_depth_max <- 100L
.verdict_types <- c("logical", "integer", "double", "character")

.verdict_refuse <- function(...) stop(structure(class = c("verdict_wire_error", "error", "condition"),
                                                list(message = paste0(...), call = NULL)))

.verdict_string <- function(s) {
    s <- enc2utf8(s)
    if (!validUTF8(s)) .verdict_refuse("a string that is not UTF-8")
    s <- gsub("\\", "\\\\", s, fixed = TRUE)
    s <- gsub("\"", "\\\"", s, fixed = TRUE)
    s <- gsub("\n", "\\n", s, fixed = TRUE)
    s <- gsub("\t", "\\t", s, fixed = TRUE)
    s <- gsub("\r", "\\r", s, fixed = TRUE)
    if (grepl("[\001-\037]", s, useBytes = TRUE)) {
        for (i in c(1:31)) {
            ch <- rawToChar(as.raw(i))
            s <- gsub(ch, sprintf("\\u%04x", i), s, fixed = TRUE, useBytes = TRUE)
        }
        Encoding(s) <- "UTF-8"
    }
    paste0("\"", s, "\"")
}

.verdict_double <- function(x) {
    if (is.nan(x)) return("{\"float\":\"nan\"}")
    if (x == Inf) return("{\"float\":\"inf\"}")
    if (x == -Inf) return("{\"float\":\"-inf\"}")
    s <- sprintf("%.15g", x)
    if (as.numeric(s) != x) s <- sprintf("%.17g", x)
    if (!grepl("[.e]", s)) s <- paste0(s, ".0")
    s
}

.verdict_element <- function(x, type) {
    if (is.na(x) && !(type == "double" && is.nan(x))) return("null")
    switch(type,
           logical = if (x) "true" else "false",
           integer = as.character(x),
           double = .verdict_double(x),
           character = .verdict_string(x))
}

.verdict_encode <- function(v, depth = 0L) {
    if (depth > .verdict_depth_max) .verdict_refuse("a value nested deeper than 100 levels")
    if (is.null(v)) return("null")
    extra <- setdiff(names(attributes(v)), "names")
    if (length(extra)) .verdict_refuse("a value with attributes (", paste(extra, collapse = ", "), ")")
    nm <- names(v)
    if (is.list(v)) {
        items <- vapply(v, .verdict_encode, "", depth = depth + 1L, USE.NAMES = FALSE)
        if (is.null(nm)) return(paste0("[", paste(items, collapse = ","), "]"))
        keys <- vapply(nm, .verdict_string, "", USE.NAMES = FALSE)
        return(paste0("{\"map\":[", paste0("[", keys, ",", items, "]", collapse = ","), "]}"))
    }
    type <- typeof(v)
    if (!(type %in% .verdict_types)) .verdict_refuse("a value of type ", type)
    if (length(v) == 1L && is.null(nm) && !is.na(v)) return(.verdict_element(v, type))
    items <- vapply(seq_along(v), function(i) .verdict_element(v[[i]], type), "")
    names_part <- if (is.null(nm)) "null" else
        paste0("[", paste(vapply(nm, .verdict_string, "", USE.NAMES = FALSE), collapse = ","), "]")
    paste0("{\"tuple\":[\"", type, "\",[", paste(items, collapse = ","), "],", names_part, "]}")
}

# ---- decoding: the text cut into JSON tokens at once, then a descent over them ----------------

.verdict_token_re <- paste0("\"(?:[^\"\\\\\\x00-\\x1f]|\\\\.)*\"|-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?",
                            "|true|false|null|[\\[\\]{},:]|[ \\t\\r\\n]+|.")

.verdict_unstring <- function(tok, bad) {
    body <- substr(tok, 2L, nchar(tok) - 1L)
    if (!grepl("\\", body, fixed = TRUE)) return(body)
    if (!grepl("^(?:[^\\\\]|\\\\[\"\\\\/bfnrt]|\\\\u[0-9a-fA-F]{4})*$", body, perl = TRUE)) bad("a bad escape")
    parts <- strsplit(body, "\\", fixed = TRUE)[[1]]
    out <- parts[[1]]
    i <- 2L
    while (i <= length(parts)) {
        p <- parts[[i]]
        if (p == "") {  # an escaped backslash: "\\" splits into "", then the rest
            out <- paste0(out, "\\", if (i + 1L <= length(parts)) parts[[i + 1L]] else "")
            i <- i + 2L
            next
        }
        e <- substr(p, 1L, 1L)
        if (e == "u") {
            code <- strtoi(substr(p, 2L, 5L), 16L)
            rest <- substr(p, 6L, nchar(p))
            if (code == 0L) bad("\\u0000")
            if (code >= 0xD800 && code <= 0xDBFF) {
                nxt <- if (i + 1L <= length(parts)) parts[[i + 1L]] else ""
                low <- if (rest == "" && substr(nxt, 1L, 1L) == "u") strtoi(substr(nxt, 2L, 5L), 16L) else NA
                if (is.na(low) || low < 0xDC00 || low > 0xDFFF) bad("a lone surrogate")
                code <- 0x10000 + (code - 0xD800) * 0x400 + (low - 0xDC00)
                rest <- substr(nxt, 6L, nchar(nxt))
                i <- i + 1L
            } else if (code >= 0xDC00 && code <= 0xDFFF) {
                bad("a lone surrogate")
            }
            out <- paste0(out, intToUtf8(code), rest)
        } else {
            out <- paste0(out, switch(e, "\"" = "\"", "/" = "/", b = "\b", f = "\f", n = "\n",
                                      r = "\r", t = "\t"), substr(p, 2L, nchar(p)))
        }
        i <- i + 1L
    }
    out
}

.verdict_decode <- function(text, message = FALSE) {
    if (!validUTF8(text)) .verdict_refuse("a line that is not UTF-8")
    toks <- regmatches(text, gregexpr(.verdict_token_re, text, perl = TRUE))[[1]]
    toks <- toks[!grepl("^[ \t\r\n]", toks)]
    n <- length(toks)
    pos <- 1L
    bad <- function(what) .verdict_refuse("out of protocol at token ", pos, ": ", what)
    peek <- function() if (pos <= n) toks[[pos]] else ""
    take <- function() { t <- peek(); pos <<- pos + 1L; t }
    expect <- function(t) if (take() != t) bad(paste0("'", t, "' expected"))
    str <- function() {
        t <- take()
        if (substr(t, 1L, 1L) != "\"" || nchar(t) < 2L) bad("a string expected")
        .verdict_unstring(t, bad)
    }
    items <- function(depth) {
        expect("[")
        out <- list()
        if (peek() == "]") { pos <<- pos + 1L; return(out) }
        repeat {
            out[length(out) + 1L] <- list(value(depth))
            t <- take()
            if (t == "]") return(out)
            if (t != ",") bad("',' or ']' expected")
        }
    }
    typed <- function(depth) {
        parts <- items(depth)
        if (length(parts) != 3L || !is.character(parts[[1]]) || !(parts[[1]] %in% .verdict_types) ||
            !is.list(parts[[2]]) || !(is.null(parts[[3]]) || is.list(parts[[3]])))
            bad("a tuple that is not an R vector")
        type <- parts[[1]]
        v <- vector(type, length(parts[[2]]))
        for (i in seq_along(parts[[2]])) {
            x <- parts[[2]][[i]]
            if (is.null(x)) {
                v[i] <- NA
            } else {
                ok <- switch(type, logical = is.logical(x), integer = is.integer(x),
                             double = is.double(x), character = is.character(x))
                if (!ok || length(x) != 1L || !is.null(names(x))) bad("an element that is not of the vector's type")
                v[i] <- x
            }
        }
        if (!is.null(parts[[3]])) {
            nm <- parts[[3]]
            if (length(nm) != length(v) || !all(vapply(nm, function(x) is.character(x) && length(x) == 1L, NA)))
                bad("names that are not one string per element")
            names(v) <- unlist(nm)
        }
        v
    }
    tagged <- function(depth) {
        expect("{")
        tag <- str()
        expect(":")
        v <- switch(tag,
                    float = switch(str(), nan = NaN, inf = Inf, "-inf" = -Inf, bad("a bad float")),
                    tuple = typed(depth),
                    map = {
                        entries <- items(depth)
                        out <- list()
                        keys <- character(0)
                        for (e in entries) {
                            if (!is.list(e) || length(e) != 2L || !is.character(e[[1]]) || length(e[[1]]) != 1L)
                                bad("a map entry that is not [name, value]")
                            out[length(out) + 1L] <- list(e[[2]])
                            keys <- c(keys, e[[1]])
                        }
                        names(out) <- keys
                        out
                    },
                    bad("an object that is not an R value"))
        expect("}")
        v
    }
    value <- function(depth) {
        if (depth > .verdict_depth_max) bad("nested too deep")
        t <- peek()
        if (t == "null") { pos <<- pos + 1L; return(NULL) }
        if (t == "true") { pos <<- pos + 1L; return(TRUE) }
        if (t == "false") { pos <<- pos + 1L; return(FALSE) }
        if (t == "[") return(items(depth + 1L))
        if (t == "{") return(tagged(depth + 1L))
        c <- substr(t, 1L, 1L)
        if (c == "\"") return(str())
        if (c == "-" || grepl("^[0-9]", c)) {
            pos <<- pos + 1L
            if (grepl("[.eE]", t)) return(as.numeric(t))
            v <- suppressWarnings(as.integer(t))
            if (is.na(v)) bad("an integer R cannot hold")
            return(v)
        }
        bad("not a value")
    }
    # a message: {"KEY":V,...}, as a named list
    top <- function() {
        expect("{")
        out <- list()
        repeat {
            k <- str()
            expect(":")
            out[k] <- list(value(0L))
            t <- take()
            if (t == "}") return(out)
            if (t != ",") bad("',' or '}' expected")
        }
    }
    result <- if (message) top() else value(0L)
    if (pos <= n) bad("trailing characters")
    result
}

# ---- the channel: one JSON text per line, through cat (base R opens no inherited fd) ----------

.verdict_open <- function() {
    list(input = pipe("exec cat <&3", "r"), output = pipe("exec cat >&4", "w"))
}

.verdict_write <- function(ch, text) {
    writeLines(text, ch$output, useBytes = TRUE)
    flush(ch$output)
}

# the next line, or NULL when the channel closed
.verdict_read <- function(ch) {
    line <- readLines(ch$input, n = 1L, warn = FALSE, encoding = "UTF-8")
    if (length(line) == 0L) NULL else line
}
