object Main {
  @volatile var v = 0
  def main(args: Array[String]): Unit = {
    val t = new Thread(new Runnable { def run(): Unit = v = 42 }); t.start(); t.join(); println(v)
  }
}
