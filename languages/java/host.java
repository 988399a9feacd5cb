// The program's side of the grader's channel (runners/job.h: calls read on fd 3, answers
// written on fd 4), the file VerdictHost.java beside the program's, started by the class Main
// the template's join adds after the program's code. It holds no test and decides nothing:
// for each {"call":NAME,"args":[...]} it decodes the arguments into the parameter types of the
// prompt's declaration (VerdictSig, beside class Main), calls the method NAME of the class that
// declares the entry point with them (reflection converts them as the tests' call would), and
// answers {"ok":V} with the result as its runtime class encodes, or
// {"raise":TYPE,"message":TEXT} when the call threw; the grader trusts nothing it says beyond
// the values it carries (languages/wire.md).
final class VerdictHost {
    private static String raised(Throwable e) {
        StringBuilder o = new StringBuilder("{\"raise\":");
        String text = String.valueOf(e.getMessage());
        VerdictWire.putString(o, e.getClass().getName());
        o.append(",\"message\":");
        VerdictWire.putString(o, text.length() > 2000 ? text.substring(0, 2000) : text);
        return o.append('}').toString();
    }

    private static java.lang.reflect.Method find(Class<?> c, String name, int n, java.lang.reflect.Method like) {
        java.lang.reflect.Method first = null;
        for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
            if (!m.getName().equals(name) || m.getParameterCount() != n || m.isSynthetic())
                continue;
            m.setAccessible(true);
            if (like == null || java.util.Arrays.equals(m.getGenericParameterTypes(), like.getGenericParameterTypes()))
                return m;
            if (first == null)
                first = m;
        }
        if (first == null)
            throw new VerdictWire.Bad(c.getName() + " has no method " + name + " of " + n + " parameters");
        return first;
    }

    private static String answer(Class<?> c, Class<?> sig, Object[] self, String line) throws Throwable {
        Object v = VerdictWire.parse(line);
        VerdictWire.Obj o = v instanceof VerdictWire.Obj ? (VerdictWire.Obj) v : null;
        if (o == null || o.keys.size() != 2 || !o.keys.get(0).equals("call") ||
            !o.keys.get(1).equals("args") || !(o.vals.get(0) instanceof String) ||
            !(o.vals.get(1) instanceof java.util.ArrayList))
            throw new VerdictWire.Bad("not a call");
        java.util.List<?> wargs = (java.util.List<?>) o.vals.get(1);
        String name = (String) o.vals.get(0);
        // the arguments as the prompt declares them (VerdictSig); reflection then passes them to
        // the program's method as the tests' call would (unboxing, widening: long to double)
        java.lang.reflect.Method declared = find(sig, name, wargs.size(), null);
        java.lang.reflect.Method m = find(c, name, wargs.size(), declared);
        java.lang.reflect.Type[] types = declared.getGenericParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < args.length; i++)
            args[i] = VerdictWire.decode(wargs.get(i), types[i]);
        boolean isStatic = java.lang.reflect.Modifier.isStatic(m.getModifiers());
        if (!isStatic && self[0] == null) {
            java.lang.reflect.Constructor<?> k = c.getDeclaredConstructor();
            k.setAccessible(true);
            self[0] = k.newInstance();
        }
        Object r;
        try {
            r = m.invoke(isStatic ? null : self[0], args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            return raised(e.getCause());
        }
        StringBuilder out = new StringBuilder("{\"ok\":");
        if (m.getReturnType() == void.class)
            out.append("null");
        else
            VerdictWire.encode(out, r);
        return out.append('}').toString();
    }

    /** Serves c's methods until the grader closes the channel; sig declares them as the tests
     * call them (the prompt's declaration). */
    static void serve(Class<?> c, Class<?> sig) throws java.io.IOException {
        VerdictWire.Lines in = new VerdictWire.Lines(new java.io.FileInputStream("/dev/fd/3"));
        java.io.OutputStream out = new java.io.FileOutputStream("/dev/fd/4");
        Object[] self = {null};
        for (;;) {
            String line;
            try {
                line = in.next();
            } catch (VerdictWire.Bad e) {
                return; // not our grader
            }
            if (line == null)
                return;
            String reply;
            try {
                reply = answer(c, sig, self, line);
            } catch (Throwable e) {
                reply = raised(e);
            }
            System.out.flush();
            VerdictWire.write(out, reply);
        }
    }
}
