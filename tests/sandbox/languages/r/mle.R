hog <- list()
repeat {
  hog[[length(hog) + 1]] <- runif(1e6)
}
