val hog = ArrayList<ByteArray>()
while (true) { val b = ByteArray(1 shl 20); b.fill(1); hog.add(b) }
