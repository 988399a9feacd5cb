#lang racket/base
(displayln "hello")
