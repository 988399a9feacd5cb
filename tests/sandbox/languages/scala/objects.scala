sealed trait Shape
case object Circle extends Shape
// Helper comes first, but Main has the main method: Main runs.
object Helper { def twice(x: Int): Int = 2 * x }
object Main {
  def main(args: Array[String]): Unit = println(Helper.twice(21) + " " + Circle)
}
