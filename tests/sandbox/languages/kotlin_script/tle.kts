var x = 0L
while (true) { x++; if (x == -1L) break }
