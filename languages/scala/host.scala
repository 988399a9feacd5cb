// The program's side of the grader's channel (runners/job.h: calls read on fd 3, answers
// written on fd 4), compiled beside the program (VerdictHost.scala) and started by its
// VerdictMain. It holds no test and decides nothing: for each {"call":NAME,"args":[...]} it
// decodes the arguments into the parameter types of the prompt's declaration (their
// Manifests, which types() takes from VerdictSig's copy of it), calls the program's method of
// that name on its object by reflection (boxed arguments unbox as a call would pass them), and
// answers {"ok":V} with the result as its runtime class encodes (wire.scala), or
// {"raise":CLASS,"message":TEXT} when the call threw or its answer is no value of the wire.
object VerdictHost {
  type M = Manifest[_]
  def types[R](f: () => R): List[M] = Nil
  def types[A, R](f: A => R)(implicit a: Manifest[A]): List[M] = List(a)
  def types[A, B, R](f: (A, B) => R)(implicit a: Manifest[A], b: Manifest[B]): List[M] = List(a, b)
  def types[A, B, C, R](f: (A, B, C) => R)(implicit a: Manifest[A], b: Manifest[B], c: Manifest[C]): List[M] = List(a, b, c)
  def types[A, B, C, D, R](f: (A, B, C, D) => R)(implicit a: Manifest[A], b: Manifest[B], c: Manifest[C], d: Manifest[D]): List[M] = List(a, b, c, d)
  def types[A, B, C, D, E, R](f: (A, B, C, D, E) => R)(implicit a: Manifest[A], b: Manifest[B], c: Manifest[C], d: Manifest[D], e: Manifest[E]): List[M] = List(a, b, c, d, e)
  def types[A, B, C, D, E, F, R](f: (A, B, C, D, E, F) => R)(implicit a: Manifest[A], b: Manifest[B], c: Manifest[C], d: Manifest[D], e: Manifest[E], g: Manifest[F]): List[M] = List(a, b, c, d, e, g)

  private def raised(t: String, m: String): String = {
    val o = new java.lang.StringBuilder("{\"raise\":")
    VerdictWire.putString(o, t)
    o.append(",\"message\":")
    VerdictWire.putString(o, if (m == null) "" else m.take(2000))
    o.append("}\n").toString
  }

  private def answer(obj: AnyRef, name: String, params: List[M], line: String): String = {
    val call = try VerdictWire.parse(line) catch { case _: VerdictWire.Bad => null }
    val a = if (call == null) null else call.field("args")
    if (a == null || a.kind != '[' || a.items.length != params.length)
      return raised("ValueError", "the grader's call could not be decoded")
    val args = try a.items.zip(params).map { case (v, m) => VerdictWire.decode(v, m).asInstanceOf[AnyRef] }
    catch { case e: VerdictWire.Bad => return raised("ValueError", "the grader's call could not be decoded as " + params.mkString(", ") + ": " + e.getMessage) }
    val methods = obj.getClass.getMethods.filter(m => m.getName == name && m.getParameterTypes.length == args.length)
    if (methods.isEmpty) return raised("NoSuchMethodException", name)
    var last: Throwable = null
    for (m <- methods) {
      val result = try Some(m.invoke(obj, args: _*)) catch {
        case e: IllegalArgumentException => last = e; None // another overload's types
        case e: java.lang.reflect.InvocationTargetException =>
          val c = if (e.getCause == null) e else e.getCause
          return raised(c.getClass.getName, c.getMessage)
      }
      if (result.isDefined) {
        val o = new java.lang.StringBuilder("{\"ok\":")
        try VerdictWire.encode(o, result.get)
        catch { case e: VerdictWire.Bad => return raised("TypeError", e.getMessage) }
        return o.append("}\n").toString
      }
    }
    raised(last.getClass.getName, "no " + name + " takes the declared arguments: " + last.getMessage)
  }

  // Serves the method name of obj, declared with these parameter types, until the grader
  // closes the channel.
  def serve(obj: AnyRef, name: String, params: List[M]): Unit = {
    var line = VerdictWire.readLine(Int.MaxValue)
    while (line != null) {
      val o = try answer(obj, name, params, line) catch {
        case e: Throwable => raised(e.getClass.getName, e.getMessage)
      }
      System.out.flush()
      if (!VerdictWire.writeAll(o)) Runtime.getRuntime.halt(1)
      line = VerdictWire.readLine(Int.MaxValue)
    }
    System.out.flush()
  }
}
