io.write(io.read("a"))
