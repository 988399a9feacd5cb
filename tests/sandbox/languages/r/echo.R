writeLines(readLines(file("stdin")))
