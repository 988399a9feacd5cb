var v = 0
val t = Thread { v = 42 }
t.start()
t.join()
println(v)
