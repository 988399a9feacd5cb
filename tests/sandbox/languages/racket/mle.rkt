#lang racket/base
(let loop ([hog (list)])
  (loop (cons (make-bytes 1048576 1) hog)))
