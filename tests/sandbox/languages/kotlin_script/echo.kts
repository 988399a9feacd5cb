generateSequence(::readLine).forEach { println(it) }
