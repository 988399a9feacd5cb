f <- function(x {
  x
}
