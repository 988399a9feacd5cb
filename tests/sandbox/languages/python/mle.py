hog = []
while True:
    hog.append(bytearray(1 << 20))
