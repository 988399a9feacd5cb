// The grader's side of the channel (runners/job.h: it writes calls on fd 4 and reads answers
// on fd 3), compiled with the tests into a jar of its own (languages/README.md, "a compiled
// grader"). The entry point the tests call is a proxy with the prompt's own declaration whose
// body is VerdictGrader.call: each call is sent as {"call":NAME,"args":[...]} and its answer
// decoded by wire.scala into the declared return type (its Manifest, which scalac writes
// from the declaration), so the tests compare values of their own types, never an object of
// the program's making. Exit status (languages/wire.md): 0 when the tests' main returned, 1
// when a check failed (an AssertionError, any exception of the tests), 2 as soon as the
// program broke a call (raised, exited, closed its channel, answered out of protocol):
// Runtime.halt at once, which no handler of the tests can stop.
object VerdictGrader {
  def broke(name: String, why: String, detail: String = ""): Nothing = {
    System.out.flush()
    System.err.println("verdict grader: the program broke the call of " + name + ": " + why +
      (if (detail.isEmpty) "" else ": " + detail.take(2000)))
    System.err.flush()
    Runtime.getRuntime.halt(2)
    throw new Error("halted")
  }

  // The entry point by name; its call's R is then inferred from the proxy's declared type.
  def apply(name: String): Caller = new Caller(name)

  final class Caller(name: String) {
    def call[R](args: Any*)(implicit m: Manifest[R]): R = VerdictGrader.call(name, args, m)
  }

  // One call sent, its answer decoded into R.
  def call[R](name: String, args: _root_.scala.collection.Seq[Any], m: Manifest[R]): R = {
    if (VerdictWire.hasPending) // the program wrote what no call asked for
      broke(name, "it wrote on its channel between calls")
    val o = new java.lang.StringBuilder("{\"call\":")
    VerdictWire.putString(o, name)
    o.append(",\"args\":[")
    for ((a, i) <- args.zipWithIndex) {
      if (i > 0) o.append(',')
      VerdictWire.encode(o, a)
    }
    o.append("]}\n")
    System.out.flush() // the tests' output before the program's
    val line = if (VerdictWire.writeAll(o.toString)) VerdictWire.readLine(VerdictWire.MaxLine) else null
    if (line == null) broke(name, "it exited or closed its channel before answering")
    val v = try VerdictWire.parse(line) catch { case _: VerdictWire.Bad => broke(name, "its answer is not a value of the wire") }
    if (v.kind != '{') broke(name, "its answer is not a value of the wire")
    val ok = v.tagged("ok")
    if (ok != null) {
      try VerdictWire.decode(ok, m).asInstanceOf[R]
      catch { case e: VerdictWire.Bad => broke(name, "its answer is not a value of the declared return type " + m, e.getMessage) }
    } else {
      val t = v.field("raise")
      val msg = v.field("message")
      if (v.keys.length != 2 || t == null || msg == null || t.kind != 's' || msg.kind != 's')
        broke(name, "its answer is not a value of the wire")
      broke(name, "it raised", t.text + (if (msg.text.isEmpty) "" else ": " + msg.text))
    }
  }

  // Runs the tests' main: exit 0 when it returned, 1 when it threw.
  def run(tests: => Unit): Unit = {
    val status = try { tests; 0 } catch {
      case e: Throwable =>
        System.out.flush()
        System.err.println("verdict grader: a check failed: " + e)
        1
    }
    System.out.flush()
    System.err.flush()
    Runtime.getRuntime.halt(status)
  }
}
