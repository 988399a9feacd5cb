;; The program's side of the grader's channel (runners/job.h: fd 3 in, fd 4 out), after
;; wire.rkt, loaded as `verdict_host.rktl` by the end of the program's module (racket.json's
;; join), PROGRAM being that module's namespace. It holds no secret and decides nothing: it
;; answers each {"call":NAME,"args":[...]} with {"ok":V} or {"raise":TYPE,"message":TEXT}, and
;; the grader trusts nothing it says beyond the values it carries.

(require ffi/unsafe/port)

(define (host-message key read-value read-string)
  (case key
    [("call") (read-string)]
    [("args") (read-value)]
    [else (wire-refuse "a request with a key ~s" key)]))

(define (host-type e)
  (cond
    [(exn? e) (let ([v (struct->vector e)])
                (regexp-replace #rx"^struct:" (symbol->string (vector-ref v 0)) ""))]
    [else ""]))

(define (host-answer line)
  (with-handlers ([(lambda (e) #t)
                   (lambda (e)
                     (string-append "{\"raise\":" (wire-encode (host-type e)) ",\"message\":"
                                    (wire-encode (let ([m (if (exn? e) (exn-message e) (format "~e" e))])
                                                   (if (> (string-length m) 2000) (substring m 0 2000) m)))
                                    "}"))])
    (define req (wire-decode line host-message))
    (unless (equal? (map car req) '("call" "args"))
      (wire-refuse "a request that is not a call"))
    (define f (namespace-variable-value (string->symbol (cdar req)) #f #f PROGRAM))
    (define v (apply f (cdadr req)))
    (string-append "{\"ok\":" (wire-encode v) "}")))

(define (host-serve)
  (define in (unsafe-file-descriptor->port 3 'verdict-in '(read)))
  (define out (unsafe-file-descriptor->port 4 'verdict-out '(write)))
  (let loop ()
    (define line (wire-read-line in))
    (when (string? line)
      (define a (host-answer line))
      (flush-output (current-output-port))
      (wire-write-line out a)
      (loop))))

(host-serve)
