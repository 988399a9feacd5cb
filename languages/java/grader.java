// The grader's side of the channel (runners/job.h: it writes calls on fd 4 and reads answers
// on fd 3), compiled with the tests into a jar of its own (languages/README.md, "a compiled
// grader") and run as `VerdictGrader`, whose main runs the tests' (class Main's). The entry
// point the tests call is a proxy of the prompt's own declaration, whose body is
// VerdictGrader.call: the arguments are sent as {"call":NAME,"args":[...]} and the answer
// decoded by VerdictWire into the proxy's declared return type, so the tests compare values of
// the JDK's own classes, never an object of the program's making. Exit status
// (languages/wire.md): 0 when the tests' main returned, 1 when a check failed (an assertion,
// an exception in the tests), 2 as soon as the program broke a call (raised, exited, closed
// its channel, answered out of protocol): Runtime.halt at once, so that no handler of the
// tests can swallow it.
final class VerdictGrader {
    private static VerdictWire.Lines in;
    private static java.io.OutputStream out;
    /** Set by junit.java's runner: a raise of the program's crosses as an exception the tests
     * may expect (assertThrows), of the JDK's own class of that name where there is one;
     * those thrown are kept here, so that one no test caught is the program's (RE). */
    static boolean rethrow;
    static final java.util.Set<Throwable> raised =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    private static RuntimeException raisedAs(String type, String text) {
        RuntimeException e = null;
        try { // only the JDK's classes: a name of the tests' own would run their code
            Class<?> c = type.startsWith("java.") ? Class.forName(type, false, null) : null;
            if (c != null && RuntimeException.class.isAssignableFrom(c))
                e = (RuntimeException) c.getConstructor(String.class).newInstance(text);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException x) {
            e = null;
        }
        if (e == null)
            e = new RuntimeException(type + (text.isEmpty() ? "" : ": " + text));
        raised.add(e);
        return e;
    }

    private static void broke(String name, String why) {
        System.out.flush();
        String text = why.length() > 2000 ? why.substring(0, 2000) : why;
        System.err.println("verdict grader: the program broke the call of " + name + ": " + text);
        System.err.flush();
        Runtime.getRuntime().halt(2);
    }

    /** One call of m (the proxy: its name, its declared return type) with these arguments. */
    @SuppressWarnings("unchecked")
    static <T> T call(java.lang.reflect.Method m, Object[] args) {
        String name = m.getName();
        StringBuilder msg = new StringBuilder("{\"call\":");
        VerdictWire.putString(msg, name);
        msg.append(",\"args\":[");
        for (int i = 0; i < args.length; i++) {
            if (i > 0)
                msg.append(',');
            VerdictWire.encode(msg, args[i]); // a test's argument the wire cannot carry: Bad, a failed check
        }
        msg.append("]}");
        System.out.flush(); // the tests' output before the program's
        String line = null;
        try {
            if (in.pending())
                broke(name, "it wrote on its channel between calls");
            VerdictWire.write(out, msg);
            line = in.next();
        } catch (java.io.IOException | VerdictWire.Bad e) {
            line = null;
        }
        if (line == null)
            broke(name, "it exited or closed its channel before answering");
        Object v = null;
        try {
            v = VerdictWire.parse(line);
        } catch (VerdictWire.Bad e) {
            broke(name, "its answer is not a value of the wire: " + e.getMessage());
        }
        VerdictWire.Obj o = v instanceof VerdictWire.Obj ? (VerdictWire.Obj) v : null;
        if (o != null && o.keys.size() == 1 && o.keys.get(0).equals("ok")) {
            try {
                if (m.getReturnType() == void.class) {
                    if (o.vals.get(0) != VerdictWire.NULL)
                        broke(name, "a method of no value answered a value");
                    return null;
                }
                return (T) VerdictWire.decode(o.vals.get(0), m.getGenericReturnType());
            } catch (VerdictWire.Bad e) {
                broke(name, "its answer is not a value of the declared return type: " + e.getMessage());
            }
        }
        if (o != null && o.keys.size() == 2 && o.keys.get(0).equals("raise") &&
            o.keys.get(1).equals("message") && o.vals.get(0) instanceof String &&
            o.vals.get(1) instanceof String) {
            String t = (String) o.vals.get(0), text = (String) o.vals.get(1);
            if (rethrow)
                throw raisedAs(t, text);
            broke(name, "it raised " + t + (text.isEmpty() ? "" : ": " + text));
        }
        broke(name, "its answer is not a value of the wire");
        return null; // not reached
    }

    public static void main(String[] args) {
        int status = 0;
        try {
            in = new VerdictWire.Lines(new java.io.FileInputStream("/dev/fd/3"));
            out = new java.io.FileOutputStream("/dev/fd/4");
        } catch (java.io.IOException e) {
            System.err.println("verdict grader: no channel: " + e);
            Runtime.getRuntime().halt(3);
        }
        try {
            Main.main(args);
        } catch (Throwable t) {
            System.out.flush();
            t.printStackTrace();
            System.err.println("verdict grader: a check failed");
            status = 1;
        }
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(status);
    }
}
