// The typed wire (languages/wire.md) in Java, for the grader (grader.java) and the host
// (host.java): one JSON text a line on the channel (fd 3 in, fd 4 out), parsed by this file's
// own code into its own plain values, then decoded into a declared type (a method's generic
// parameter or return type, read by reflection) as the JDK's own classes: Long, Float,
// String, ArrayList, HashMap, Optional, org.javatuples' tuples. Nothing read is ever called,
// loaded or evaluated. A top-level class of the file it is joined into (no public class, no
// import: every name is qualified, since the grader's file has the prompt's imports and the
// host's the program's classes).
final class VerdictWire {
    static final int MAX_LINE = 64 << 20;
    static final int MAX_DEPTH = 100;

    /** Out of protocol: a line, value or type the wire does not carry. */
    static final class Bad extends RuntimeException {
        Bad(String why) {
            super(why, null, false, false);
        }
    }

    /** A wire integer, as its digits (converted to the declared width on decode). */
    static final class Int {
        final String digits;

        Int(String digits) {
            this.digits = digits;
        }
    }

    /** A wire float. */
    static final class Flt {
        final double v;

        Flt(double v) {
            this.v = v;
        }
    }

    /** A JSON object: its members in order. */
    static final class Obj {
        final java.util.ArrayList<String> keys = new java.util.ArrayList<>();
        final java.util.ArrayList<Object> vals = new java.util.ArrayList<>();

        Object only(String key) {
            return keys.size() == 1 && keys.get(0).equals(key) ? vals.get(0) : null;
        }
    }

    static final Object NULL = new Object();

    // ---- the channel ------------------------------------------------------------------------

    /** One line of a stream, without its newline; null at the end of the stream. */
    static final class Lines {
        private final java.io.InputStream in;
        private byte[] buf = new byte[1 << 16];
        private int start, end;

        Lines(java.io.InputStream in) {
            this.in = in;
        }

        boolean pending() {
            return start < end;
        }

        String next() throws java.io.IOException {
            for (int scanned = start;;) {
                for (; scanned < end; scanned++) {
                    if (buf[scanned] == '\n') {
                        String s = utf8(buf, start, scanned - start);
                        start = scanned + 1;
                        return s;
                    }
                }
                if (end - start > MAX_LINE)
                    throw new Bad("a line of over " + MAX_LINE + " bytes");
                if (start > 0) {
                    System.arraycopy(buf, start, buf, 0, end - start);
                    scanned -= start;
                    end -= start;
                    start = 0;
                }
                if (end == buf.length)
                    buf = java.util.Arrays.copyOf(buf, buf.length * 2);
                int n = in.read(buf, end, buf.length - end);
                if (n <= 0)
                    return null;
                end += n;
            }
        }
    }

    static String utf8(byte[] b, int off, int len) {
        try {
            return java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(b, off, len)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new Bad("a line that is not UTF-8");
        }
    }

    static void write(java.io.OutputStream out, CharSequence line) throws java.io.IOException {
        out.write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        out.flush();
    }

    // ---- JSON ---------------------------------------------------------------------------------

    static Object parse(String s) {
        int[] at = {0};
        Object v = value(s, at, 0);
        if (at[0] != s.length())
            throw new Bad("bytes after the value");
        return v;
    }

    private static Object value(String s, int[] at, int depth) {
        if (depth > MAX_DEPTH)
            throw new Bad("nested deeper than " + MAX_DEPTH);
        if (at[0] >= s.length())
            throw new Bad("a value is missing");
        char c = s.charAt(at[0]);
        if (c == '"')
            return string(s, at);
        if (c == '[') {
            java.util.ArrayList<Object> list = new java.util.ArrayList<>();
            at[0]++;
            if (peek(s, at) == ']') {
                at[0]++;
                return list;
            }
            for (;;) {
                list.add(value(s, at, depth + 1));
                char d = next(s, at);
                if (d == ']')
                    return list;
                if (d != ',')
                    throw new Bad("a list's items are not separated by commas");
            }
        }
        if (c == '{') {
            Obj o = new Obj();
            at[0]++;
            if (peek(s, at) == '}') {
                at[0]++;
                return o;
            }
            for (;;) {
                if (peek(s, at) != '"')
                    throw new Bad("an object's key is not a string");
                o.keys.add(string(s, at));
                if (next(s, at) != ':')
                    throw new Bad("an object's key has no value");
                o.vals.add(value(s, at, depth + 1));
                char d = next(s, at);
                if (d == '}')
                    return o;
                if (d != ',')
                    throw new Bad("an object's members are not separated by commas");
            }
        }
        if (s.startsWith("true", at[0]) || s.startsWith("null", at[0])) {
            at[0] += 4;
            return c == 't' ? Boolean.TRUE : NULL;
        }
        if (s.startsWith("false", at[0])) {
            at[0] += 5;
            return Boolean.FALSE;
        }
        return number(s, at);
    }

    private static char peek(String s, int[] at) {
        return at[0] < s.length() ? s.charAt(at[0]) : '\0';
    }

    private static char next(String s, int[] at) {
        return at[0] < s.length() ? s.charAt(at[0]++) : '\0';
    }

    private static Object number(String s, int[] at) {
        int i = at[0], n = s.length();
        if (i < n && s.charAt(i) == '-')
            i++;
        int digits = i;
        while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9')
            i++;
        if (i == digits || (s.charAt(digits) == '0' && i - digits > 1))
            throw new Bad("not a value of the wire");
        boolean real = false;
        if (i < n && s.charAt(i) == '.') {
            int f = ++i;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9')
                i++;
            if (i == f)
                throw new Bad("a number with no digits after its point");
            real = true;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-'))
                i++;
            int e = i;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9')
                i++;
            if (i == e)
                throw new Bad("a number with no digits in its exponent");
            real = true;
        }
        String text = s.substring(at[0], i);
        at[0] = i;
        return real ? new Flt(Double.parseDouble(text)) : new Int(text);
    }

    private static String string(String s, int[] at) {
        StringBuilder b = new StringBuilder();
        int i = at[0] + 1, n = s.length();
        for (;;) {
            if (i >= n)
                throw new Bad("a string is not closed");
            char c = s.charAt(i++);
            if (c == '"')
                break;
            if (c < 0x20)
                throw new Bad("a control character in a string");
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = i < n ? s.charAt(i++) : '\0';
            switch (e) {
            case '"': case '\\': case '/': b.append(e); break;
            case 'b': b.append('\b'); break;
            case 'f': b.append('\f'); break;
            case 'n': b.append('\n'); break;
            case 'r': b.append('\r'); break;
            case 't': b.append('\t'); break;
            case 'u':
                if (i + 4 > n)
                    throw new Bad("a short \\u escape");
                try {
                    b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                } catch (NumberFormatException x) {
                    throw new Bad("a bad \\u escape");
                }
                i += 4;
                break;
            default:
                throw new Bad("a bad escape in a string");
            }
        }
        at[0] = i;
        return b.toString();
    }

    static void putString(StringBuilder o, String s) {
        o.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\')
                o.append('\\').append(c);
            else if (c == '\n')
                o.append("\\n");
            else if (c < 0x20 || Character.isSurrogate(c) && !paired(s, i))
                o.append(String.format("\\u%04x", (int) c));
            else
                o.append(c);
        }
        o.append('"');
    }

    private static boolean paired(String s, int i) {
        char c = s.charAt(i);
        return Character.isHighSurrogate(c) ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
                                            : i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    // ---- values out: by their runtime class ---------------------------------------------------

    static void encode(StringBuilder o, Object v) {
        encode(o, v, 0);
    }

    private static void encode(StringBuilder o, Object v, int depth) {
        if (depth > MAX_DEPTH)
            throw new Bad("a value nested deeper than " + MAX_DEPTH);
        if (v == null) {
            o.append("null");
        } else if (v instanceof Boolean) {
            o.append(((Boolean) v).booleanValue() ? "true" : "false");
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            o.append(((Number) v).longValue());
        } else if (v instanceof java.math.BigInteger) {
            o.append(v.toString());
        } else if (v instanceof Float || v instanceof Double) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d))
                o.append("{\"float\":\"nan\"}");
            else if (Double.isInfinite(d))
                o.append(d > 0 ? "{\"float\":\"inf\"}" : "{\"float\":\"-inf\"}");
            else
                o.append(Double.toString(d)); // always with a point or an exponent
        } else if (v instanceof Character) {
            o.append("{\"char\":");
            putString(o, String.valueOf(((Character) v).charValue()));
            o.append('}');
        } else if (v instanceof String) {
            putString(o, (String) v);
        } else if (v instanceof java.util.Optional) {
            encode(o, ((java.util.Optional<?>) v).orElse(null), depth + 1);
        } else if (v instanceof org.javatuples.Tuple) {
            o.append("{\"tuple\":");
            items(o, ((org.javatuples.Tuple) v).toList(), depth);
            o.append('}');
        } else if (v instanceof java.util.Map) {
            o.append("{\"map\":[");
            boolean first = true;
            for (java.util.Map.Entry<?, ?> e : ((java.util.Map<?, ?>) v).entrySet()) {
                o.append(first ? "[" : ",[");
                first = false;
                encode(o, e.getKey(), depth + 2);
                o.append(',');
                encode(o, e.getValue(), depth + 2);
                o.append(']');
            }
            o.append("]}");
        } else if (v instanceof java.util.Set) {
            o.append("{\"set\":");
            items(o, (java.util.Set<?>) v, depth);
            o.append('}');
        } else if (v instanceof Iterable) {
            items(o, (Iterable<?>) v, depth);
        } else if (v.getClass().isArray()) {
            java.util.ArrayList<Object> l = new java.util.ArrayList<>();
            for (int i = 0, n = java.lang.reflect.Array.getLength(v); i < n; i++)
                l.add(java.lang.reflect.Array.get(v, i));
            items(o, l, depth);
        } else {
            throw new Bad("a value of class " + v.getClass().getName() + " does not cross the wire");
        }
    }

    private static void items(StringBuilder o, Iterable<?> it, int depth) {
        o.append('[');
        boolean first = true;
        for (Object x : it) {
            if (!first)
                o.append(',');
            first = false;
            encode(o, x, depth + 1);
        }
        o.append(']');
    }

    // ---- values in: into a declared type -------------------------------------------------------

    static Object decode(Object w, java.lang.reflect.Type t) {
        if (t instanceof Class)
            return decodeClass(w, (Class<?>) t, null);
        if (t instanceof java.lang.reflect.ParameterizedType) {
            java.lang.reflect.ParameterizedType p = (java.lang.reflect.ParameterizedType) t;
            return decodeClass(w, (Class<?>) p.getRawType(), p.getActualTypeArguments());
        }
        if (t instanceof java.lang.reflect.WildcardType)
            return decode(w, ((java.lang.reflect.WildcardType) t).getUpperBounds()[0]);
        if (t instanceof java.lang.reflect.GenericArrayType) {
            java.lang.reflect.Type c = ((java.lang.reflect.GenericArrayType) t).getGenericComponentType();
            Class<?> raw = c instanceof java.lang.reflect.ParameterizedType
                               ? (Class<?>) ((java.lang.reflect.ParameterizedType) c).getRawType()
                               : Object.class;
            return array(w, raw, c);
        }
        return decodeClass(w, Object.class, null); // a type variable
    }

    private static java.lang.reflect.Type arg(java.lang.reflect.Type[] a, int i) {
        return a != null && i < a.length ? a[i] : Object.class;
    }

    private static long integer(Object w, long min, long max) {
        if (!(w instanceof Int))
            throw new Bad("not an integer");
        String d = ((Int) w).digits;
        try {
            long v = d.length() > 21 ? Long.MIN_VALUE : Long.parseLong(d);
            if (d.length() <= 21 && v >= min && v <= max)
                return v;
        } catch (NumberFormatException e) {
            // below
        }
        throw new Bad("an integer out of range: " + (d.length() > 40 ? d.substring(0, 40) + "..." : d));
    }

    private static double real(Object w) {
        if (w instanceof Flt)
            return ((Flt) w).v;
        if (w instanceof Obj) {
            Object f = ((Obj) w).only("float");
            if ("nan".equals(f))
                return Double.NaN;
            if ("inf".equals(f))
                return Double.POSITIVE_INFINITY;
            if ("-inf".equals(f))
                return Double.NEGATIVE_INFINITY;
        }
        throw new Bad("not a float");
    }

    private static Object decodeClass(Object w, Class<?> c, java.lang.reflect.Type[] a) {
        if (w == NULL) {
            if (c.isPrimitive())
                throw new Bad("null for a " + c.getName());
            return c == java.util.Optional.class ? java.util.Optional.empty() : null;
        }
        if (c == long.class || c == Long.class)
            return integer(w, Long.MIN_VALUE, Long.MAX_VALUE);
        if (c == int.class || c == Integer.class)
            return (int) integer(w, Integer.MIN_VALUE, Integer.MAX_VALUE);
        if (c == short.class || c == Short.class)
            return (short) integer(w, Short.MIN_VALUE, Short.MAX_VALUE);
        if (c == byte.class || c == Byte.class)
            return (byte) integer(w, Byte.MIN_VALUE, Byte.MAX_VALUE);
        if (c == double.class || c == Double.class)
            return real(w);
        if (c == float.class || c == Float.class)
            return (float) real(w);
        if (c == boolean.class || c == Boolean.class) {
            if (!(w instanceof Boolean))
                throw new Bad("not a bool");
            return w;
        }
        if (c == char.class || c == Character.class)
            return character(w);
        if (c == String.class || c == CharSequence.class) {
            if (!(w instanceof String))
                throw new Bad("not a string");
            return w;
        }
        if (c == java.math.BigInteger.class) {
            if (!(w instanceof Int) || ((Int) w).digits.length() > 10000)
                throw new Bad("not an integer");
            return new java.math.BigInteger(((Int) w).digits);
        }
        if (c == java.util.Optional.class)
            return java.util.Optional.of(decode(w, arg(a, 0)));
        if (c.isArray())
            return array(w, c.getComponentType(), c.getComponentType());
        if (c == Object.class || c == Number.class || c == java.io.Serializable.class ||
            c == Comparable.class)
            return any(w, 0);
        if (org.javatuples.Tuple.class.isAssignableFrom(c))
            return tuple(w, c, a);
        if (java.util.Map.class.isAssignableFrom(c))
            return map(w, c, a);
        if (java.util.Set.class.isAssignableFrom(c))
            return fill(tagged(w, "set"), c == java.util.TreeSet.class ? new java.util.TreeSet<>()
                                                                          : c == java.util.LinkedHashSet.class ? new java.util.LinkedHashSet<>()
                                                                                                               : new java.util.HashSet<>(),
                        arg(a, 0), c);
        if (c.isAssignableFrom(java.util.ArrayList.class))
            return fill(list(w), new java.util.ArrayList<>(), arg(a, 0), c);
        if (c.isAssignableFrom(java.util.LinkedList.class))
            return fill(list(w), new java.util.LinkedList<>(), arg(a, 0), c);
        throw new Bad("the wire carries no " + c.getName());
    }

    private static Character character(Object w) {
        Object s = w instanceof Obj ? ((Obj) w).only("char") : null;
        if (!(s instanceof String) || ((String) s).length() != 1)
            throw new Bad("not a char");
        return ((String) s).charAt(0);
    }

    private static java.util.List<?> list(Object w) {
        if (!(w instanceof java.util.ArrayList))
            throw new Bad("not a list");
        return (java.util.List<?>) w;
    }

    private static java.util.List<?> tagged(Object w, String tag) {
        Object v = w instanceof Obj ? ((Obj) w).only(tag) : null;
        if (!(v instanceof java.util.ArrayList))
            throw new Bad("not a " + tag);
        return (java.util.List<?>) v;
    }

    @SuppressWarnings("unchecked")
    private static Object fill(java.util.List<?> items, java.util.Collection<?> into, java.lang.reflect.Type t, Class<?> c) {
        java.util.Collection<Object> o = (java.util.Collection<Object>) into;
        for (Object x : items)
            o.add(decode(x, t));
        if (!c.isInstance(o))
            throw new Bad("the wire carries no " + c.getName());
        return o;
    }

    private static Object array(Object w, Class<?> raw, java.lang.reflect.Type t) {
        java.util.List<?> items = list(w);
        Object arr = java.lang.reflect.Array.newInstance(raw, items.size());
        for (int i = 0; i < items.size(); i++)
            java.lang.reflect.Array.set(arr, i, decode(items.get(i), t));
        return arr;
    }

    @SuppressWarnings("unchecked")
    private static Object map(Object w, Class<?> c, java.lang.reflect.Type[] a) {
        java.util.Map<Object, Object> m = c == java.util.TreeMap.class || c == java.util.SortedMap.class
                                              ? new java.util.TreeMap<>()
                                          : c == java.util.LinkedHashMap.class ? new java.util.LinkedHashMap<>()
                                                                               : new java.util.HashMap<>();
        if (!c.isInstance(m))
            throw new Bad("the wire carries no " + c.getName());
        for (Object e : tagged(w, "map")) {
            java.util.List<?> kv = list(e);
            if (kv.size() != 2)
                throw new Bad("a map entry that is not a pair");
            m.put(decode(kv.get(0), arg(a, 0)), decode(kv.get(1), arg(a, 1)));
        }
        return m;
    }

    private static final String[] TUPLES = {"Unit", "Pair", "Triplet", "Quartet", "Quintet",
                                            "Sextet", "Septet", "Octet", "Ennead", "Decade"};

    private static Object tuple(Object w, Class<?> c, java.lang.reflect.Type[] a) {
        java.util.List<?> items = tagged(w, "tuple");
        Object[] vals = new Object[items.size()];
        for (int i = 0; i < vals.length; i++)
            vals[i] = decode(items.get(i), arg(a, i));
        if (vals.length < 1 || vals.length > TUPLES.length)
            throw new Bad("a tuple of " + vals.length);
        Class<?> k = c;
        try {
            if (c == org.javatuples.Tuple.class)
                k = Class.forName("org.javatuples." + TUPLES[vals.length - 1]);
            if (!k.getName().equals("org.javatuples." + TUPLES[vals.length - 1]))
                throw new Bad("a tuple of " + vals.length + " for a " + c.getName());
            return k.getMethod("fromArray", Object[].class).invoke(null, (Object) vals);
        } catch (ReflectiveOperationException e) {
            throw new Bad("no tuple of " + vals.length);
        }
    }

    /** A value for a declared Object: integer Long (BigInteger past 64 bits), float Float
     * where it is exactly one (MultiPL-E's Java has float, never double), else Double, list
     * ArrayList, map HashMap, set HashSet, tuple a javatuples tuple of its size. */
    private static Object any(Object w, int depth) {
        if (depth > MAX_DEPTH)
            throw new Bad("nested deeper than " + MAX_DEPTH);
        if (w == NULL)
            return null;
        if (w instanceof Boolean || w instanceof String)
            return w;
        if (w instanceof Int) {
            String d = ((Int) w).digits;
            return d.length() <= 18 ? (Object) Long.parseLong(d) : decodeClass(w, java.math.BigInteger.class, null);
        }
        if (w instanceof java.util.ArrayList)
            return fill(list(w), new java.util.ArrayList<>(), Object.class, java.util.ArrayList.class);
        if (w instanceof Flt || (w instanceof Obj && ((Obj) w).only("float") != null)) {
            double d = real(w);
            return (double) (float) d == d || Double.isNaN(d) ? (Object) (float) d : (Object) d;
        }
        Obj o = w instanceof Obj ? (Obj) w : null;
        if (o != null && o.only("char") != null)
            return character(w);
        if (o != null && o.only("map") != null)
            return map(w, java.util.HashMap.class, null);
        if (o != null && o.only("set") != null)
            return fill(tagged(w, "set"), new java.util.HashSet<>(), Object.class, java.util.HashSet.class);
        if (o != null && o.only("tuple") != null)
            return tuple(w, org.javatuples.Tuple.class, null);
        throw new Bad("not a value of the wire");
    }
}
