class NoObject { def f: Int = 1 }
