hog = []
loop { hog << "x" * (1 << 20) }
