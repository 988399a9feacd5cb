#lang racket/base
;; A place is a Racket instance on an OS thread of its own.
(require racket/place)
(define (main)
  (define p (place ch (place-channel-put ch (* 6 7))))
  (displayln (place-channel-get p))
  (void (place-wait p)))
(module+ main (main))
