library(parallel)
job <- mcparallel(6 * 7)
cat(mccollect(job)[[1]], "\n", sep = "")
