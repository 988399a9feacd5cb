#lang racket/base
(let loop () (loop))
