cat("hello\n")
