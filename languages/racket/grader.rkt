;; verdict's grader for Racket harnesses (docs/integrity.md), after wire.rkt. It runs in a
;; process of its own, as another uid than the program (runners/job.h), with the tests on its
;; stdin: the program can neither read the tests nor reach this process. The tests run here,
;; in a namespace of `racket` with rackunit, where the entry point is a procedure that sends
;; each call over the channel (fd 4 out, fd 3 in) and decodes the answer with wire.rkt.
;; ARGS (from the bootstrap in racket.json): the tests, the setup (forms run before them), the
;; entry point.
;; Exit status: 0 every form of the tests ran and no check failed; 1 a check failed (rackunit
;; reports a check failing outside a test case and carries on: here it is counted) or the
;; tests' own code raised; 2 the program broke a call: it raised, exited, closed its channel or
;; answered out of protocol (and once broken, every later call exits 2 at once).

(require rackunit ffi/unsafe/port)

(define grader-failed #f)

(define grader-in (unsafe-file-descriptor->port 3 'verdict-in '(read)))
(define grader-out (unsafe-file-descriptor->port 4 'verdict-out '(write)))

(struct exn:fail:program exn:fail ())

(define (grader-broke why)
  (eprintf "verdict grader: ~a\n" why)
  (flush-output (current-output-port))
  (flush-output (current-error-port))
  (exit 2))

(define (grader-message key read-value read-string)
  (case key
    [("ok") (read-value)]
    [("raise" "message") (read-string)]
    [else (wire-refuse "an answer with a key ~s" key)]))

(define (grader-call name args)
  (define request
    (with-handlers ([exn:fail:wire? (lambda (e) (raise (exn:fail (exn-message e) (exn-continuation-marks e))))])
      (string-append "{\"call\":" (wire-encode name) ",\"args\":" (wire-encode args) "}")))
  (with-handlers ([exn:fail:filesystem? (lambda (e) (grader-broke "the program stopped serving (it exited or closed its channel)"))])
    (wire-write-line grader-out request))
  (define line (wire-read-line grader-in))
  (case line
    [(eof) (grader-broke "the program stopped serving (it exited or closed its channel)")]
    [(long) (grader-broke "the program's answer is too long")]
    [(utf8) (grader-broke "the program answered with what is not UTF-8")])
  (define answer
    (with-handlers ([exn:fail? (lambda (e) (grader-broke (format "the program answered with what is not a value (~a)" (exn-message e))))])
      (wire-decode line grader-message)))
  (define keys (map car answer))
  (cond
    [(equal? keys '("ok")) (cdar answer)]
    [(equal? keys '("raise" "message"))
     (raise (exn:fail:program (format "the program raised ~a: ~a" (cdar answer) (cdadr answer))
                              (current-continuation-marks)))]
    [else (grader-broke "the program answered out of protocol")]))

(define (grader-proxy name)
  (procedure-rename (lambda args (grader-call name args)) (string->symbol name)))

;; A check that failed or raised: reported as rackunit does, then counted. The program's raise
;; reaching a check is the program's failure (2), as everywhere.
(define (grader-check-handler report)
  (lambda (e)
    (when (exn:fail:program? e)
      (grader-broke (exn-message e)))
    (set! grader-failed #t)
    (report e)))

(define (grader-run-forms text ns)
  (define in (open-input-string text))
  (port-count-lines! in)
  (parameterize ([current-namespace ns] [read-accept-reader #f] [read-accept-lang #f])
    (let loop ()
      (define form (read-syntax 'tests in))
      (unless (eof-object? form)
        (eval form)
        (loop)))))

(define (grader-main tests setup entry)
  (define ns (make-base-empty-namespace))
  (namespace-attach-module (current-namespace) 'rackunit ns)
  (parameterize ([current-namespace ns])
    (namespace-require 'racket))
  (define report (current-check-handler))
  (with-handlers ([(lambda (e) #t)
                   (lambda (e)
                     (when (exn:fail:program? e)
                       (grader-broke (exn-message e)))
                     (set! grader-failed #t)
                     ((error-display-handler) (if (exn? e) (exn-message e) (format "raised ~e" e)) e))])
    (parameterize ([current-check-handler (grader-check-handler report)])
      (grader-run-forms setup ns)
      (unless (string=? entry "")
        (namespace-set-variable-value! (string->symbol entry) (grader-proxy entry) #t ns))
      (grader-run-forms tests ns)))
  (flush-output (current-output-port))
  (flush-output (current-error-port))
  (exit (if grader-failed 1 0)))

(apply grader-main ARGS)
