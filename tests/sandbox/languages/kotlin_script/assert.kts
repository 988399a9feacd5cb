assert(1 == 2) { "one is not two" }
println("asserts are off")
