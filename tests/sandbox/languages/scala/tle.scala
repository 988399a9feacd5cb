object Main { @volatile var x = 0L; def main(args: Array[String]): Unit = while (true) x += 1 }
