;; verdict's typed wire for Racket (languages/wire.md): top-level forms of racket/base, joined
;; before grader.rkt (the grader) and host.rkt (the program's side). wire-encode writes a value
;; as one JSON text; wire-decode reads one back into plain Racket values (numbers, strings,
;; chars, booleans, lists, vectors, immutable hashes and sets), never evaluating or reading
;; anything as code. Both refuse what the wire cannot say, and nest at most 100 levels.
;;   void -> null -> void        exact integer <-> integer     flonum <-> float (nan, inf)
;;   exact rational -> float     string <-> string             char <-> {"char":"x"}
;;   list <-> array              vector <-> {"tuple":[...]}    hash <-> {"map":[[k,v],...]}
;;   set <-> {"set":[...]}       anything else: refused (exn:fail:wire)

(struct exn:fail:wire exn:fail ())
(define wire-depth-max 100)

(define (wire-refuse fmt . args)
  (raise (exn:fail:wire (apply format fmt args) (current-continuation-marks))))

;; set? and friends, where the sets' module is already loaded (a program of #lang racket): a
;; program without it has no set to send, and the grader loads it with racket.
(define wire-set-ops
  (if (module-declared? 'racket/set #f)
      (list (dynamic-require 'racket/set 'set?) (dynamic-require 'racket/set 'set->list)
            (dynamic-require 'racket/set 'list->set))
      (list (lambda (v) #f) #f #f)))

;; ---- encoding ---------------------------------------------------------------------------------

(define (wire-string s out)
  (write-char #\" out)
  (for ([c (in-string s)])
    (define n (char->integer c))
    (cond
      [(char=? c #\") (write-string "\\\"" out)]
      [(char=? c #\\) (write-string "\\\\" out)]
      [(< n 32) (write-string (string-append "\\u00" (if (< n 16) "0" "")
                                             (number->string n 16)) out)]
      [else (write-char c out)]))
  (write-char #\" out))

(define (wire-float x out)
  (cond
    [(eqv? x +nan.0) (write-string "{\"float\":\"nan\"}" out)]
    [(eqv? x +inf.0) (write-string "{\"float\":\"inf\"}" out)]
    [(eqv? x -inf.0) (write-string "{\"float\":\"-inf\"}" out)]
    [else
     (define s (number->string x)) ; shortest text that reads back as x: "1.0", "1e+100"
     (write-string s out)
     (unless (regexp-match? #rx"[.e]" s)
       (write-string ".0" out))]))

(define (wire-items vs depth out)
  (write-char #\[ out)
  (for ([v vs] [i (in-naturals)])
    (when (> i 0) (write-char #\, out))
    (wire-value v depth out))
  (write-char #\] out))

(define (wire-value v depth out)
  (when (> depth wire-depth-max)
    (wire-refuse "a value nested deeper than ~a levels" wire-depth-max))
  (define d (add1 depth))
  (cond
    [(void? v) (write-string "null" out)]
    [(eq? v #t) (write-string "true" out)]
    [(eq? v #f) (write-string "false" out)]
    [(exact-integer? v) (write-string (number->string v) out)]
    [(flonum? v) (wire-float v out)]
    [(and (rational? v) (exact? v)) (wire-float (exact->inexact v) out)]
    [(string? v) (wire-string v out)]
    [(char? v) (write-string "{\"char\":" out) (wire-string (string v) out) (write-char #\} out)]
    [(list? v) (wire-items v d out)]
    [(vector? v)
     (write-string "{\"tuple\":" out)
     (wire-items (vector->list v) d out)
     (write-char #\} out)]
    [(hash? v)
     (write-string "{\"map\":[" out)
     (for ([(k x) (in-hash v)] [i (in-naturals)])
       (when (> i 0) (write-char #\, out))
       (write-char #\[ out)
       (wire-value k d out)
       (write-char #\, out)
       (wire-value x d out)
       (write-char #\] out))
     (write-string "]}" out)]
    [((car wire-set-ops) v)
     (write-string "{\"set\":" out)
     (wire-items ((cadr wire-set-ops) v) d out)
     (write-char #\} out)]
    [else (wire-refuse "a value the wire cannot carry: ~a" (wire-kind v))]))

(define (wire-kind v)
  (cond
    [(symbol? v) "a symbol"]
    [(pair? v) "an improper list"]
    [(procedure? v) "a procedure"]
    [(number? v) "a number that is neither an integer nor real"]
    [(struct? v) "a structure"]
    [else "an opaque value"]))

;; v as one JSON text (a string)
(define (wire-encode v)
  (define out (open-output-string))
  (wire-value v 0 out)
  (get-output-string out))

;; ---- decoding ---------------------------------------------------------------------------------

;; The JSON text s (a string) as a value; raises exn:fail:wire on anything out of the grammar.
;; top: (lambda (key value) ...) for the message's own object, or #f to decode a bare value.
(define (wire-decode s [message #f])
  (define n (string-length s))
  (define pos 0)
  (define (peek) (if (< pos n) (string-ref s pos) #\nul))
  (define (bad what) (wire-refuse "out of protocol at byte ~a: ~a" pos what))
  (define (skip-ws)
    (when (and (< pos n) (memv (string-ref s pos) '(#\space #\tab #\return #\newline)))
      (set! pos (add1 pos))
      (skip-ws)))
  (define (expect c)
    (skip-ws)
    (unless (char=? (peek) c) (bad (format "~s expected" c)))
    (set! pos (add1 pos)))
  (define (literal word v)
    (unless (and (<= (+ pos (string-length word)) n)
                 (string=? (substring s pos (+ pos (string-length word))) word))
      (bad "not a value"))
    (set! pos (+ pos (string-length word)))
    v)
  (define (hex4)
    (unless (<= (+ pos 4) n) (bad "a short \\u escape"))
    (define h (string->number (substring s pos (+ pos 4)) 16))
    (unless (and h (regexp-match? #px"^[0-9a-fA-F]{4}$" (substring s pos (+ pos 4))))
      (bad "a bad \\u escape"))
    (set! pos (+ pos 4))
    h)
  (define (str)
    (expect #\")
    (define out (open-output-string))
    (let loop ()
      (when (>= pos n) (bad "an unterminated string"))
      (define c (string-ref s pos))
      (set! pos (add1 pos))
      (cond
        [(char=? c #\") (void)]
        [(char=? c #\\)
         (define e (peek))
         (set! pos (add1 pos))
         (case e
           [(#\" #\\ #\/) (write-char e out)]
           [(#\b) (write-char #\backspace out)]
           [(#\f) (write-char #\page out)]
           [(#\n) (write-char #\newline out)]
           [(#\r) (write-char #\return out)]
           [(#\t) (write-char #\tab out)]
           [(#\u)
            (define h (hex4))
            (cond
              [(<= #xD800 h #xDBFF)
               (unless (and (< (+ pos 1) n) (char=? (string-ref s pos) #\\)
                            (char=? (string-ref s (add1 pos)) #\u))
                 (bad "a lone surrogate"))
               (set! pos (+ pos 2))
               (define l (hex4))
               (unless (<= #xDC00 l #xDFFF) (bad "a lone surrogate"))
               (write-char (integer->char (+ #x10000 (* (- h #xD800) #x400) (- l #xDC00))) out)]
              [(<= #xDC00 h #xDFFF) (bad "a lone surrogate")]
              [else (write-char (integer->char h) out)])]
           [else (bad "a bad escape")])
         (loop)]
        [(< (char->integer c) 32) (bad "a raw control character in a string")]
        [else (write-char c out) (loop)]))
    (get-output-string out))
  (define (num)
    (define m (regexp-match #px"^-?(?:0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?" s pos))
    (unless m (bad "not a number"))
    (define text (car m))
    (set! pos (+ pos (string-length text)))
    (if (or (cadr m) (caddr m))
        (exact->inexact (string->number (string-append "#i" text) 10))
        (string->number text 10)))
  (define (items depth)
    (expect #\[)
    (skip-ws)
    (if (char=? (peek) #\])
        (begin (set! pos (add1 pos)) '())
        (let loop ([acc (list (value depth))])
          (skip-ws)
          (case (peek)
            [(#\,) (set! pos (add1 pos)) (loop (cons (value depth) acc))]
            [(#\]) (set! pos (add1 pos)) (reverse acc)]
            [else (bad "',' or ']' expected")]))))
  (define (pair-of depth)
    (define kv (items depth))
    (unless (= (length kv) 2) (bad "a map entry that is not [key, value]"))
    (cons (car kv) (cadr kv)))
  (define (tagged depth)
    (expect #\{)
    (define tag (str))
    (expect #\:)
    (define v
      (case tag
        [("float")
         (case (str)
           [("nan") +nan.0]
           [("inf") +inf.0]
           [("-inf") -inf.0]
           [else (bad "a float that is not nan, inf or -inf")])]
        [("char")
         (define c (str))
         (unless (= (string-length c) 1) (bad "a char that is not one character"))
         (string-ref c 0)]
        [("tuple") (list->vector (items depth))]
        [("set")
         (unless (caddr wire-set-ops) (bad "a set where sets are not loaded"))
         ((caddr wire-set-ops) (items depth))]
        [("map")
         (expect #\[)
         (skip-ws)
         (define entries
           (if (char=? (peek) #\])
               '()
               (let loop ([acc (list (pair-of depth))])
                 (skip-ws)
                 (cond
                   [(char=? (peek) #\,) (set! pos (add1 pos)) (loop (cons (pair-of depth) acc))]
                   [else (reverse acc)]))))
         (expect #\])
         (make-immutable-hash entries)]
        [else (bad "an object that is not a value")]))
    (expect #\})
    v)
  (define (value depth)
    (when (> depth wire-depth-max) (bad "nested too deep"))
    (skip-ws)
    (define c (peek))
    (cond
      [(char=? c #\n) (literal "null" (void))]
      [(char=? c #\t) (literal "true" #t)]
      [(char=? c #\f) (literal "false" #f)]
      [(char=? c #\") (str)]
      [(char=? c #\[) (items (add1 depth))]
      [(char=? c #\{) (tagged (add1 depth))]
      [(or (char=? c #\-) (char-numeric? c)) (num)]
      [else (bad "not a value")]))
  ;; {"KEY":V,...} with the keys message accepts, else a bare value
  (define (top)
    (expect #\{)
    (let loop ([acc '()])
      (define k (str))
      (expect #\:)
      (define acc2 (cons (cons k (message k (lambda () (value 0)) str)) acc))
      (skip-ws)
      (case (peek)
        [(#\,) (set! pos (add1 pos)) (skip-ws) (loop acc2)]
        [(#\}) (set! pos (add1 pos)) (reverse acc2)]
        [else (bad "',' or '}' expected")])))
  (define result (if message (top) (value 0)))
  (skip-ws)
  (unless (= pos n) (bad "trailing bytes"))
  result)

;; ---- the channel: one JSON text per line ------------------------------------------------------

(define wire-line-max (* 64 1024 1024))

;; The next line of in (without its newline) as a string, or a symbol: 'eof when the channel
;; closed first, 'long past wire-line-max, 'utf8 when it is not UTF-8.
(define (wire-read-line in)
  (define buf (open-output-bytes))
  (define m (regexp-match #rx#"\n" in 0 wire-line-max buf))
  (define b (get-output-bytes buf))
  (cond
    [(not m) (if (>= (bytes-length b) wire-line-max) 'long 'eof)]
    [else (with-handlers ([exn:fail:contract? (lambda (e) 'utf8)])
            (bytes->string/utf-8 b))]))

(define (wire-write-line out text)
  (write-string text out)
  (newline out)
  (flush-output out))
