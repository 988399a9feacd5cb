// The typed wire (languages/wire.md) in Scala 2.11: a strict parser of one JSON text into a
// plain tree, values encoded by their runtime class, and decoded by a type's Manifest (which
// scalac writes at the call, from the declaration's own types: List, the prompt's Map, Option,
// Either, tuples, Any...) into the standard library's own classes. The grader and the host
// both join this file after the prompt's imports (MultiPL-E's `scala.collection.mutable._`
// among them), so every name here is written from the root. Nothing it reads is called,
// loaded or evaluated.
object VerdictWire {
  final val MaxDepth = 100
  final val MaxLine = 64 << 20

  // A parsed value: exactly the JSON kinds; numbers keep their text.
  final class Value(val kind: Char, val text: String, val items: Array[Value], val keys: Array[String]) {
    def field(name: String): Value = {
      if (kind != '{') return null
      var i = 0
      while (i < keys.length) { if (keys(i) == name) return items(i); i += 1 }
      null
    }
    // The single field of an object of the form {"name": V}, or null.
    def tagged(name: String): Value =
      if (kind == '{' && keys.length == 1 && keys(0) == name) items(0) else null
  }

  final class Bad(why: String) extends _root_.java.lang.RuntimeException(why)

  // ---- the channel (runners/job.h: each side reads fd 3, writes fd 4) ----
  private lazy val in = new _root_.java.io.FileInputStream("/dev/fd/3")
  private lazy val out = new _root_.java.io.FileOutputStream("/dev/fd/4")
  private val pending = new _root_.java.io.ByteArrayOutputStream()

  // One line from fd 3 without its newline, or null at EOF or past max bytes waiting.
  def readLine(max: Int): String = {
    val buf = new Array[Byte](65536)
    while (true) {
      val have = pending.toByteArray
      val nl = have.indexOf('\n'.toByte)
      if (nl >= 0) {
        pending.reset()
        pending.write(have, nl + 1, have.length - nl - 1)
        return new String(have, 0, nl, "UTF-8")
      }
      if (have.length > max) return null
      val n = try in.read(buf) catch { case _: _root_.java.io.IOException => -1 }
      if (n <= 0) return null
      pending.write(buf, 0, n)
    }
    null
  }
  def hasPending: Boolean = pending.size > 0

  // s to fd 4; false when the other side is gone.
  def writeAll(s: String): Boolean =
    try { out.write(s.getBytes("UTF-8")); out.flush(); true }
    catch { case _: _root_.java.io.IOException => false }

  // ---- parsing ----
  def parse(t: String): Value = {
    val p = new Parser(t)
    p.skip()
    val v = p.one(0)
    p.skip()
    if (p.i != t.length) throw new Bad("trailing text")
    v
  }

  private final class Parser(t: String) {
    var i = 0
    def bad(): Nothing = throw new Bad("not a value of the wire")
    def skip(): Unit = while (i < t.length && " \t\r\n".indexOf(t.charAt(i)) >= 0) i += 1
    def lit(w: String): Unit = if (t.startsWith(w, i)) i += w.length else bad()
    def hex4(): Int = {
      if (t.length - i < 4) bad()
      var c = 0
      for (_ <- 0 until 4) {
        val d = _root_.java.lang.Character.digit(t.charAt(i), 16)
        if (d < 0) bad()
        c = c * 16 + d
        i += 1
      }
      c
    }
    def str(): String = {
      lit("\"")
      val o = new _root_.java.lang.StringBuilder
      while (i < t.length && t.charAt(i) != '"') {
        val c = t.charAt(i)
        i += 1
        if (c < 0x20) bad()
        if (c != '\\') o.append(c)
        else {
          if (i >= t.length) bad()
          val e = t.charAt(i)
          i += 1
          e match {
            case '"' => o.append('"'); case '\\' => o.append('\\'); case '/' => o.append('/')
            case 'b' => o.append('\b'); case 'f' => o.append('\f'); case 'n' => o.append('\n')
            case 'r' => o.append('\r'); case 't' => o.append('\t')
            case 'u' =>
              val c = hex4()
              if (c >= 0xd800 && c < 0xdc00) { // a surrogate pair
                lit("\\u")
                val lo = hex4()
                if (lo < 0xdc00 || lo >= 0xe000) bad()
                o.append(c.toChar).append(lo.toChar)
              } else if (c >= 0xdc00 && c < 0xe000) bad()
              else o.append(c.toChar)
            case _ => bad()
          }
        }
      }
      lit("\"")
      o.toString
    }
    def digits(): Unit = {
      if (i >= t.length || !_root_.java.lang.Character.isDigit(t.charAt(i)) || t.charAt(i) > '9') bad()
      while (i < t.length && t.charAt(i) >= '0' && t.charAt(i) <= '9') i += 1
    }
    def number(): Value = {
      val s = i
      if (i < t.length && t.charAt(i) == '-') i += 1
      if (i < t.length && t.charAt(i) == '0') i += 1 else digits()
      var flt = false
      if (i < t.length && t.charAt(i) == '.') { flt = true; i += 1; digits() }
      if (i < t.length && (t.charAt(i) == 'e' || t.charAt(i) == 'E')) {
        flt = true
        i += 1
        if (i < t.length && (t.charAt(i) == '+' || t.charAt(i) == '-')) i += 1
        digits()
      }
      new Value(if (flt) 'f' else 'i', t.substring(s, i), null, null)
    }
    def one(depth: Int): Value = {
      if (depth > MaxDepth || i >= t.length) bad()
      t.charAt(i) match {
        case 'n' => lit("null"); new Value('n', null, null, null)
        case 't' => lit("true"); new Value('b', "true", null, null)
        case 'f' => lit("false"); new Value('b', "false", null, null)
        case '"' => new Value('s', str(), null, null)
        case '[' =>
          i += 1
          skip()
          val items = new _root_.scala.collection.mutable.ArrayBuffer[Value]
          if (t.startsWith("]", i)) i += 1
          else {
            var more = true
            while (more) {
              skip(); items += one(depth + 1); skip()
              if (t.startsWith("]", i)) { i += 1; more = false } else lit(",")
            }
          }
          new Value('[', null, items.toArray, null)
        case '{' =>
          i += 1
          skip()
          val keys = new _root_.scala.collection.mutable.ArrayBuffer[String]
          val items = new _root_.scala.collection.mutable.ArrayBuffer[Value]
          if (t.startsWith("}", i)) i += 1
          else {
            var more = true
            while (more) {
              skip()
              val k = str()
              if (keys.contains(k)) bad() // a key twice is out of protocol
              skip(); lit(":"); skip()
              keys += k
              items += one(depth + 1)
              skip()
              if (t.startsWith("}", i)) { i += 1; more = false } else lit(",")
            }
          }
          new Value('{', null, items.toArray, keys.toArray)
        case _ => number()
      }
    }
  }

  // ---- encoding, by the value's runtime class ----
  def putString(o: _root_.java.lang.StringBuilder, s: String): Unit = {
    o.append('"')
    for (c <- s) {
      if (c == '"' || c == '\\') o.append('\\').append(c)
      else if (c < 0x20) o.append("\\u%04x".format(c.toInt))
      else o.append(c)
    }
    o.append('"')
  }

  def putDouble(o: _root_.java.lang.StringBuilder, d: Double): Unit = {
    if (d.isNaN) o.append("{\"float\":\"nan\"}")
    else if (d.isInfinite) o.append(if (d > 0) "{\"float\":\"inf\"}" else "{\"float\":\"-inf\"}")
    else {
      val s = _root_.java.lang.Double.toString(d) // shortest text that round-trips
      o.append(s)
      if (s.indexOf('.') < 0 && s.indexOf('E') < 0) o.append(".0")
    }
  }

  private def isTuple(v: Any): Boolean =
    v.asInstanceOf[AnyRef].getClass.getName.matches("scala\\.Tuple[0-9]+(\\$mc.*)?")

  // v on the wire; a value of no kind the wire has (an object of the program's own class)
  // throws Bad.
  def encode(o: _root_.java.lang.StringBuilder, v: Any, depth: Int = 0): Unit = {
    if (depth > MaxDepth) throw new Bad("a value nested too deep")
    v match {
      case null | () => o.append("null")
      case b: Boolean => o.append(b)
      case c: Char => o.append("{\"char\":"); putString(o, c.toString); o.append('}')
      case n: Long => o.append(n)
      case n: Int => o.append(n)
      case n: Short => o.append(n)
      case n: Byte => o.append(n)
      case n: BigInt => o.append(n.toString)
      case f: Float => putDouble(o, f.toDouble)
      case d: Double => putDouble(o, d)
      case s: String => putString(o, s)
      case _root_.scala.None => o.append("null")
      case _root_.scala.Some(x) => encode(o, x, depth + 1)
      case _root_.scala.util.Left(x) => encode(o, x, depth + 1)
      case _root_.scala.util.Right(x) => encode(o, x, depth + 1)
      case m: _root_.scala.collection.Map[_, _] =>
        o.append("{\"map\":[")
        var first = true
        for ((k, x) <- m) {
          if (!first) o.append(',')
          first = false
          o.append('['); encode(o, k, depth + 1); o.append(','); encode(o, x, depth + 1); o.append(']')
        }
        o.append("]}")
      case s: _root_.scala.collection.Set[_] => items(o, "{\"set\":[", s, "]}", depth)
      case s: _root_.scala.collection.Seq[_] => items(o, "[", s, "]", depth)
      case a: Array[_] => items(o, "[", a.toSeq, "]", depth)
      case p: Product if isTuple(p) => items(o, "{\"tuple\":[", p.productIterator.toSeq, "]}", depth)
      case x => throw new Bad("a value of the class " + x.getClass.getName + " does not cross")
    }
  }

  private def items(o: _root_.java.lang.StringBuilder, open: String, s: _root_.scala.collection.Iterable[_], close: String, depth: Int): Unit = {
    o.append(open)
    var first = true
    for (x <- s) {
      if (!first) o.append(',')
      first = false
      encode(o, x, depth + 1)
    }
    o.append(close)
  }

  // ---- decoding, by the declared type ----
  private def bad(): Nothing = throw new Bad("the answer is not a value of the declared type")

  private def integer(v: Value, min: BigInt, max: BigInt): BigInt = {
    if (v == null || v.kind != 'i') bad()
    val n = BigInt(v.text)
    if (n < min || n > max) bad()
    n
  }

  private def floating(v: Value): Double = {
    val f = v.tagged("float")
    if (f != null) {
      if (f.kind != 's') bad()
      f.text match {
        case "nan" => Double.NaN; case "inf" => Double.PositiveInfinity
        case "-inf" => Double.NegativeInfinity; case _ => bad()
      }
    } else if (v.kind == 'f') _root_.java.lang.Double.parseDouble(v.text)
    else bad()
  }

  private def list(v: Value, tag: String): Array[Value] = {
    val a = if (tag == null) v else v.tagged(tag)
    if (a == null || a.kind != '[') bad()
    a.items
  }

  // Any: by the value's kind (an integer Long, a float Float where it is exactly one, else
  // Double: MultiPL-E's Scala has Float, never Double).
  private def byKind(v: Value): Any = v.kind match {
    case 'n' => null
    case 'b' => v.text == "true"
    case 'i' => integer(v, BigInt(Long.MinValue), BigInt(Long.MaxValue)).toLong
    case 'f' => val d = floating(v); if (d.toFloat.toDouble == d || d.isNaN) d.toFloat else d
    case 's' => v.text
    case '[' => v.items.toList.map(byKind)
    case _ =>
      if (v.tagged("float") != null) { val d = floating(v); if (d.toFloat.toDouble == d || d.isNaN) d.toFloat else d }
      else if (v.tagged("char") != null) decode(v, Manifest.Char)
      else if (v.tagged("map") != null) list(v, "map").map(pair).map { case (k, x) => (byKind(k), byKind(x)) }.toMap
      else if (v.tagged("set") != null) list(v, "set").map(byKind).toSet
      else if (v.tagged("tuple") != null) tuple(list(v, "tuple").map(byKind))
      else bad()
  }

  private def pair(v: Value): (Value, Value) = {
    if (v.kind != '[' || v.items.length != 2) bad()
    (v.items(0), v.items(1))
  }

  private def tuple(xs: Array[Any]): Any = {
    if (xs.length < 1 || xs.length > 22) bad()
    val c = Class.forName("scala.Tuple" + xs.length)
    c.getConstructors()(0).newInstance(xs.map(_.asInstanceOf[AnyRef]): _*)
  }

  private def is(m: Manifest[_], c: Class[_]): Boolean = c.isAssignableFrom(m.runtimeClass)

  // v as a value of the type m; Bad when it is not one (a number the type cannot hold included).
  def decode(v: Value, m: Manifest[_]): Any = {
    val c = m.runtimeClass
    val args = m.typeArguments
    def arg(i: Int): Manifest[_] = if (i < args.length) args(i) else Manifest.Any
    if (c == classOf[Long] || c == classOf[_root_.java.lang.Long]) integer(v, BigInt(Long.MinValue), BigInt(Long.MaxValue)).toLong
    else if (c == classOf[Int] || c == classOf[_root_.java.lang.Integer]) integer(v, BigInt(Int.MinValue), BigInt(Int.MaxValue)).toInt
    else if (c == classOf[Short]) integer(v, BigInt(Short.MinValue), BigInt(Short.MaxValue)).toShort
    else if (c == classOf[Byte]) integer(v, BigInt(Byte.MinValue), BigInt(Byte.MaxValue)).toByte
    else if (c == classOf[BigInt]) integer(v, BigInt(-1) << 100000, BigInt(1) << 100000)
    else if (c == classOf[Float] || c == classOf[_root_.java.lang.Float]) floating(v).toFloat
    else if (c == classOf[Double] || c == classOf[_root_.java.lang.Double]) floating(v)
    else if (c == classOf[Boolean] || c == classOf[_root_.java.lang.Boolean]) {
      if (v.kind != 'b') bad()
      v.text == "true"
    } else if (c == classOf[Char] || c == classOf[_root_.java.lang.Character]) {
      val s = v.tagged("char")
      if (s == null || s.kind != 's' || s.text.length != 1) bad()
      s.text.charAt(0)
    } else if (c == classOf[String]) {
      if (v.kind != 's') bad()
      v.text
    } else if (c == classOf[Unit] || c == classOf[_root_.scala.runtime.BoxedUnit]) {
      if (v.kind != 'n') bad()
      ()
    } else if (is(m, classOf[Option[_]])) {
      if (v.kind == 'n') None else Some(decode(v, arg(0)))
    } else if (is(m, classOf[_root_.scala.util.Either[_, _]])) {
      try _root_.scala.util.Left(decode(v, arg(0)))
      catch { case _: Bad => _root_.scala.util.Right(decode(v, arg(1))) }
    } else if (c.getName.matches("scala\\.Tuple[0-9]+")) {
      val xs = list(v, "tuple")
      if (xs.length != args.length) bad()
      tuple(xs.zip(args).map { case (x, a) => decode(x, a) })
    } else if (is(m, classOf[_root_.scala.collection.mutable.Map[_, _]]) || c == classOf[_root_.scala.collection.mutable.HashMap[_, _]]) {
      val r = new _root_.scala.collection.mutable.HashMap[Any, Any]
      for (p <- list(v, "map")) { val (k, x) = pair(p); val key = decode(k, arg(0)); if (r.contains(key)) bad(); r(key) = decode(x, arg(1)) }
      r
    } else if (is(m, classOf[_root_.scala.collection.Map[_, _]])) {
      var r = _root_.scala.collection.immutable.Map[Any, Any]()
      for (p <- list(v, "map")) { val (k, x) = pair(p); val key = decode(k, arg(0)); if (r.contains(key)) bad(); r += key -> decode(x, arg(1)) }
      r
    } else if (is(m, classOf[_root_.scala.collection.mutable.Set[_]])) {
      val r = new _root_.scala.collection.mutable.HashSet[Any]
      for (x <- list(v, "set")) r += decode(x, arg(0))
      r
    } else if (is(m, classOf[_root_.scala.collection.Set[_]])) {
      list(v, "set").map(decode(_, arg(0))).toSet
    } else if (is(m, classOf[_root_.scala.collection.mutable.ArrayBuffer[_]])) {
      _root_.scala.collection.mutable.ArrayBuffer[Any](list(v, null).map(decode(_, arg(0))): _*)
    } else if (c.isArray) {
      val xs = list(v, null)
      val a = _root_.java.lang.reflect.Array.newInstance(c.getComponentType, xs.length)
      for (i <- xs.indices) _root_.scala.runtime.ScalaRunTime.array_update(a, i, decode(xs(i), m.typeArguments.headOption.getOrElse(Manifest.classType(c.getComponentType))))
      a
    } else if (c == classOf[Object]) byKind(v) // Any, AnyRef
    else if (c.isAssignableFrom(classOf[_root_.scala.collection.immutable.List[_]])) {
      list(v, null).toList.map(decode(_, arg(0)))
    } else throw new Bad("the declared type " + m + " has no wire codec (languages/scala)")
  }
}
