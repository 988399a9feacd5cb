object Main {
  def main(args: Array[String]): Unit = {
    val hog = scala.collection.mutable.ArrayBuffer[Array[Byte]]()
    while (true) { val b = new Array[Byte](1 << 20); java.util.Arrays.fill(b, 1.toByte); hog += b }
  }
}
