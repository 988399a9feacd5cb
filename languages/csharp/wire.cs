// The typed wire (languages/wire.md) in C#, for the grader (grader.cs) and the host (host.cs):
// one JSON text a line on the channel (fd 3 in, fd 4 out), parsed by this file's own code into
// its own plain values, then decoded into a declared type (a method's parameter or return
// type, read by reflection: .NET's generics are whole at run time) as the framework's own
// types: long, float, string, List<T>, Dictionary<K,V>, HashSet<T>, Tuple<...>, Nullable<T>,
// arrays. Nothing read is ever called, loaded or evaluated. In a namespace of its own, after
// the file's other types: the grader's file starts with the prompt's using directives, the
// host's is the program's neighbour.
namespace VerdictRuntime {
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Numerics;
using System.Reflection;
using System.Text;

static class VerdictWire {
    public const int MaxLine = 64 << 20;
    public const int MaxDepth = 100;

    /// <summary>Out of protocol: a line, value or type the wire does not carry.</summary>
    public sealed class Bad : Exception {
        public Bad(string why) : base(why) {}
    }

    /// <summary>A wire integer, as its digits (converted to the declared width on decode).</summary>
    public sealed class Int {
        public readonly string Digits;
        public Int(string d) { Digits = d; }
    }

    public sealed class Flt {
        public readonly double V;
        public Flt(double v) { V = v; }
    }

    /// <summary>A JSON object: its members in order.</summary>
    public sealed class Obj {
        public readonly List<string> Keys = new List<string>();
        public readonly List<object> Vals = new List<object>();
        public object Only(string key) {
            return Keys.Count == 1 && Keys[0] == key ? Vals[0] : null;
        }
    }

    public static readonly object Null = new object();

    // ---- the channel ------------------------------------------------------------------------

    /// <summary>The lines of a stream, without their newline; null at its end.</summary>
    public sealed class Lines {
        readonly Stream input;
        byte[] buf = new byte[1 << 16];
        int start, end;

        public Lines(Stream s) { input = s; }

        public bool Pending { get { return start < end; } }

        public string Next() {
            for (int scanned = start;;) {
                for (; scanned < end; scanned++) {
                    if (buf[scanned] == (byte)'\n') {
                        string s = Utf8(buf, start, scanned - start);
                        start = scanned + 1;
                        return s;
                    }
                }
                if (end - start > MaxLine)
                    throw new Bad("a line of over " + MaxLine + " bytes");
                if (start > 0) {
                    Buffer.BlockCopy(buf, start, buf, 0, end - start);
                    scanned -= start;
                    end -= start;
                    start = 0;
                }
                if (end == buf.Length)
                    Array.Resize(ref buf, buf.Length * 2);
                int n = input.Read(buf, end, buf.Length - end);
                if (n <= 0)
                    return null;
                end += n;
            }
        }
    }

    static readonly UTF8Encoding Strict = new UTF8Encoding(false, true);

    static string Utf8(byte[] b, int off, int len) {
        try {
            return Strict.GetString(b, off, len);
        } catch (ArgumentException) {
            throw new Bad("a line that is not UTF-8");
        }
    }

    public static void Write(Stream o, string line) {
        byte[] b = Strict.GetBytes(line + "\n");
        o.Write(b, 0, b.Length);
        o.Flush();
    }

    // ---- JSON ---------------------------------------------------------------------------------

    public static object Parse(string s) {
        int at = 0;
        object v = Value(s, ref at, 0);
        if (at != s.Length)
            throw new Bad("bytes after the value");
        return v;
    }

    static char Peek(string s, int at) { return at < s.Length ? s[at] : '\0'; }

    static object Value(string s, ref int at, int depth) {
        if (depth > MaxDepth)
            throw new Bad("nested deeper than " + MaxDepth);
        char c = Peek(s, at);
        if (c == '"')
            return Str(s, ref at);
        if (c == '[') {
            var list = new List<object>();
            at++;
            if (Peek(s, at) == ']') { at++; return list; }
            for (;;) {
                list.Add(Value(s, ref at, depth + 1));
                char d = Peek(s, at++);
                if (d == ']') return list;
                if (d != ',') throw new Bad("a list's items are not separated by commas");
            }
        }
        if (c == '{') {
            var o = new Obj();
            at++;
            if (Peek(s, at) == '}') { at++; return o; }
            for (;;) {
                if (Peek(s, at) != '"') throw new Bad("an object's key is not a string");
                o.Keys.Add(Str(s, ref at));
                if (Peek(s, at++) != ':') throw new Bad("an object's key has no value");
                o.Vals.Add(Value(s, ref at, depth + 1));
                char d = Peek(s, at++);
                if (d == '}') return o;
                if (d != ',') throw new Bad("an object's members are not separated by commas");
            }
        }
        if (string.CompareOrdinal(s, at, "true", 0, 4) == 0) { at += 4; return true; }
        if (string.CompareOrdinal(s, at, "null", 0, 4) == 0) { at += 4; return Null; }
        if (string.CompareOrdinal(s, at, "false", 0, 5) == 0) { at += 5; return false; }
        return Number(s, ref at);
    }

    static bool Digit(string s, int i) { return i < s.Length && s[i] >= '0' && s[i] <= '9'; }

    static object Number(string s, ref int at) {
        int i = at;
        if (Peek(s, i) == '-') i++;
        int digits = i;
        while (Digit(s, i)) i++;
        if (i == digits || (s[digits] == '0' && i - digits > 1))
            throw new Bad("not a value of the wire");
        bool real = false;
        if (Peek(s, i) == '.') {
            int f = ++i;
            while (Digit(s, i)) i++;
            if (i == f) throw new Bad("a number with no digits after its point");
            real = true;
        }
        if (Peek(s, i) == 'e' || Peek(s, i) == 'E') {
            i++;
            if (Peek(s, i) == '+' || Peek(s, i) == '-') i++;
            int e = i;
            while (Digit(s, i)) i++;
            if (i == e) throw new Bad("a number with no digits in its exponent");
            real = true;
        }
        string text = s.Substring(at, i - at);
        at = i;
        if (!real) return new Int(text);
        return new Flt(double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture));
    }

    static string Str(string s, ref int at) {
        var b = new StringBuilder();
        int i = at + 1;
        for (;;) {
            if (i >= s.Length) throw new Bad("a string is not closed");
            char c = s[i++];
            if (c == '"') break;
            if (c < 0x20) throw new Bad("a control character in a string");
            if (c != '\\') { b.Append(c); continue; }
            char e = Peek(s, i++);
            switch (e) {
            case '"': case '\\': case '/': b.Append(e); break;
            case 'b': b.Append('\b'); break;
            case 'f': b.Append('\f'); break;
            case 'n': b.Append('\n'); break;
            case 'r': b.Append('\r'); break;
            case 't': b.Append('\t'); break;
            case 'u':
                int u;
                if (i + 4 > s.Length || !int.TryParse(s.Substring(i, 4), NumberStyles.AllowHexSpecifier,
                                                      CultureInfo.InvariantCulture, out u))
                    throw new Bad("a bad \\u escape");
                b.Append((char)u);
                i += 4;
                break;
            default:
                throw new Bad("a bad escape in a string");
            }
        }
        at = i;
        return b.ToString();
    }

    public static void PutString(StringBuilder o, string s) {
        o.Append('"');
        for (int i = 0; i < s.Length; i++) {
            char c = s[i];
            bool lone = char.IsSurrogate(c) &&
                        !(char.IsHighSurrogate(c) ? i + 1 < s.Length && char.IsLowSurrogate(s[i + 1])
                                                  : i > 0 && char.IsHighSurrogate(s[i - 1]));
            if (c == '"' || c == '\\') o.Append('\\').Append(c);
            else if (c == '\n') o.Append("\\n");
            else if (c < 0x20 || lone) o.Append("\\u").Append(((int)c).ToString("x4"));
            else o.Append(c);
        }
        o.Append('"');
    }

    // ---- values out: by their runtime type ----------------------------------------------------

    public static void Encode(StringBuilder o, object v) { Encode(o, v, 0); }

    static bool Tuple(Type t) {
        if (!t.IsGenericType) return false;
        string n = t.GetGenericTypeDefinition().FullName;
        return n.StartsWith("System.Tuple`") || n.StartsWith("System.ValueTuple`");
    }

    static bool IsSet(Type t) {
        foreach (Type i in t.GetInterfaces())
            if (i.IsGenericType && i.GetGenericTypeDefinition() == typeof(ISet<>)) return true;
        return false;
    }

    /// <summary>A tuple's items, its Rest flattened.</summary>
    static List<object> Items(object v) {
        var items = new List<object>();
        for (;;) {
            Type t = v.GetType();
            int n = t.GetGenericArguments().Length;
            for (int i = 1; i <= Math.Min(n, 7); i++) {
                PropertyInfo p = t.GetProperty("Item" + i);
                items.Add(p != null ? p.GetValue(v, null) : t.GetField("Item" + i).GetValue(v));
            }
            if (n < 8) return items;
            PropertyInfo r = t.GetProperty("Rest");
            v = r != null ? r.GetValue(v, null) : t.GetField("Rest").GetValue(v);
        }
    }

    static void Encode(StringBuilder o, object v, int depth) {
        if (depth > MaxDepth) throw new Bad("a value nested deeper than " + MaxDepth);
        if (v == null) { o.Append("null"); return; }
        Type t = v.GetType();
        if (v is bool) { o.Append((bool)v ? "true" : "false"); return; }
        if (v is long || v is int || v is short || v is sbyte || v is byte || v is ushort || v is uint ||
            v is ulong || v is BigInteger) {
            o.Append(Convert.ToString(v, CultureInfo.InvariantCulture));
            return;
        }
        if (v is float || v is double) {
            double d = Convert.ToDouble(v, CultureInfo.InvariantCulture);
            if (double.IsNaN(d)) o.Append("{\"float\":\"nan\"}");
            else if (double.IsInfinity(d)) o.Append(d > 0 ? "{\"float\":\"inf\"}" : "{\"float\":\"-inf\"}");
            else {
                string r = d.ToString("R", CultureInfo.InvariantCulture);
                o.Append(r);
                if (r.IndexOfAny(new[] {'.', 'E', 'e'}) < 0) o.Append(".0");
            }
            return;
        }
        if (v is char) { o.Append("{\"char\":"); PutString(o, v.ToString()); o.Append('}'); return; }
        if (v is string) { PutString(o, (string)v); return; }
        if (Tuple(t)) { o.Append("{\"tuple\":"); List(o, Items(v), depth); o.Append('}'); return; }
        if (v is IDictionary) {
            o.Append("{\"map\":[");
            bool first = true;
            foreach (DictionaryEntry e in (IDictionary)v) {
                o.Append(first ? "[" : ",[");
                first = false;
                Encode(o, e.Key, depth + 2);
                o.Append(',');
                Encode(o, e.Value, depth + 2);
                o.Append(']');
            }
            o.Append("]}");
            return;
        }
        if (IsSet(t)) { o.Append("{\"set\":"); List(o, (IEnumerable)v, depth); o.Append('}'); return; }
        if (v is IEnumerable) { List(o, (IEnumerable)v, depth); return; }
        throw new Bad("a value of type " + t.FullName + " does not cross the wire");
    }

    static void List(StringBuilder o, IEnumerable items, int depth) {
        o.Append('[');
        bool first = true;
        foreach (object x in items) {
            if (!first) o.Append(',');
            first = false;
            Encode(o, x, depth + 1);
        }
        o.Append(']');
    }

    // ---- values in: into a declared type -------------------------------------------------------

    static long Integer(object w, long min, long max) {
        var i = w as Int;
        long v;
        if (i == null) throw new Bad("not an integer");
        if (!long.TryParse(i.Digits, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out v) ||
            v < min || v > max)
            throw new Bad("an integer out of range");
        return v;
    }

    static double Real(object w) {
        if (w is Flt) return ((Flt)w).V;
        var o = w as Obj;
        object f = o == null ? null : o.Only("float");
        if ("nan".Equals(f)) return double.NaN;
        if ("inf".Equals(f)) return double.PositiveInfinity;
        if ("-inf".Equals(f)) return double.NegativeInfinity;
        throw new Bad("not a float");
    }

    static List<object> Tagged(object w, string tag) {
        var o = w as Obj;
        var v = (o == null ? null : o.Only(tag)) as List<object>;
        if (v == null) throw new Bad("not a " + tag);
        return v;
    }

    static List<object> AsList(object w) {
        var l = w as List<object>;
        if (l == null) throw new Bad("not a list");
        return l;
    }

    static char Character(object w) {
        var o = w as Obj;
        var s = (o == null ? null : o.Only("char")) as string;
        if (s == null || s.Length != 1) throw new Bad("not a char");
        return s[0];
    }

    public static object Decode(object w, Type t) {
        Type under = Nullable.GetUnderlyingType(t);
        if (w == Null) {
            if (t.IsValueType && under == null) throw new Bad("null for a " + t.Name);
            return null;
        }
        if (under != null) return Decode(w, under);
        if (t == typeof(long)) return Integer(w, long.MinValue, long.MaxValue);
        if (t == typeof(int)) return (int)Integer(w, int.MinValue, int.MaxValue);
        if (t == typeof(short)) return (short)Integer(w, short.MinValue, short.MaxValue);
        if (t == typeof(sbyte)) return (sbyte)Integer(w, sbyte.MinValue, sbyte.MaxValue);
        if (t == typeof(byte)) return (byte)Integer(w, byte.MinValue, byte.MaxValue);
        if (t == typeof(uint)) return (uint)Integer(w, uint.MinValue, uint.MaxValue);
        if (t == typeof(ushort)) return (ushort)Integer(w, ushort.MinValue, ushort.MaxValue);
        if (t == typeof(ulong)) return (ulong)Integer(w, 0, long.MaxValue);
        if (t == typeof(double)) return Real(w);
        if (t == typeof(float)) return (float)Real(w);
        if (t == typeof(bool)) {
            if (!(w is bool)) throw new Bad("not a bool");
            return w;
        }
        if (t == typeof(char)) return Character(w);
        if (t == typeof(string)) {
            if (!(w is string)) throw new Bad("not a string");
            return w;
        }
        if (t == typeof(BigInteger)) {
            var i = w as Int;
            if (i == null || i.Digits.Length > 10000) throw new Bad("not an integer");
            return BigInteger.Parse(i.Digits, CultureInfo.InvariantCulture);
        }
        if (t == typeof(object)) return Any(w, 0);
        if (t.IsArray) {
            List<object> items = AsList(w);
            Array a = Array.CreateInstance(t.GetElementType(), items.Count);
            for (int i = 0; i < items.Count; i++) a.SetValue(Decode(items[i], t.GetElementType()), i);
            return a;
        }
        if (!t.IsGenericType) throw new Bad("the wire carries no " + t.FullName);
        Type def = t.GetGenericTypeDefinition();
        Type[] a0 = t.GetGenericArguments();
        if (Tuple(t)) return MakeTuple(Tagged(w, "tuple"), 0, t);
        if (def == typeof(List<>) || def == typeof(IList<>) || def == typeof(ICollection<>) ||
            def == typeof(IEnumerable<>) || def == typeof(IReadOnlyList<>) || def == typeof(IReadOnlyCollection<>))
            return Fill(AsList(w), typeof(List<>).MakeGenericType(a0), a0[0]);
        if (def == typeof(HashSet<>) || def == typeof(ISet<>))
            return Fill(Tagged(w, "set"), typeof(HashSet<>).MakeGenericType(a0), a0[0]);
        if (def == typeof(SortedSet<>))
            return Fill(Tagged(w, "set"), t, a0[0]);
        if (def == typeof(Dictionary<,>) || def == typeof(IDictionary<,>) || def == typeof(SortedDictionary<,>) ||
            def == typeof(IReadOnlyDictionary<,>)) {
            Type made = def == typeof(SortedDictionary<,>) ? t : typeof(Dictionary<,>).MakeGenericType(a0);
            var d = (IDictionary)Activator.CreateInstance(made);
            foreach (object e in Tagged(w, "map")) {
                List<object> kv = AsList(e);
                if (kv.Count != 2) throw new Bad("a map entry that is not a pair");
                object k = Decode(kv[0], a0[0]);
                if (k == null || d.Contains(k)) throw new Bad("a map key that is null or twice");
                d.Add(k, Decode(kv[1], a0[1]));
            }
            return d;
        }
        throw new Bad("the wire carries no " + t.FullName);
    }

    static object Fill(List<object> items, Type made, Type item) {
        object c = Activator.CreateInstance(made);
        MethodInfo add = made.GetMethod("Add", new[] {item});
        foreach (object x in items) add.Invoke(c, new[] {Decode(x, item)});
        return c;
    }

    /// <summary>A Tuple or ValueTuple of type t from items[from...]: its eighth type, Rest, takes
    /// the items past the seventh.</summary>
    static object MakeTuple(List<object> items, int from, Type t) {
        Type[] a = t.GetGenericArguments();
        int n = items.Count - from;
        if (a.Length < 8 ? n != a.Length : n < 8) throw new Bad("a tuple of " + n + " for a " + t.Name);
        var vals = new object[a.Length];
        for (int i = 0; i < a.Length; i++)
            vals[i] = i < 7 ? Decode(items[from + i], a[i]) : MakeTuple(items, from + 7, a[7]);
        return Activator.CreateInstance(t, vals);
    }

    static readonly Type[] Tuples = {typeof(Tuple<>), typeof(Tuple<,>), typeof(Tuple<,,>), typeof(Tuple<,,,>),
                                     typeof(Tuple<,,,,>), typeof(Tuple<,,,,,>), typeof(Tuple<,,,,,,>)};

    /// <summary>A value for a declared object: integer long (BigInteger past 64 bits), float
    /// float where it is exactly one (MultiPL-E's C# writes floats), else double, list
    /// List&lt;object&gt;, map Dictionary&lt;object, object&gt;, set HashSet&lt;object&gt;, tuple a
    /// Tuple (up to 7) typed by its items, as Tuple.Create would type them.</summary>
    static object Any(object w, int depth) {
        if (depth > MaxDepth) throw new Bad("nested deeper than " + MaxDepth);
        if (w == Null) return null;
        if (w is bool || w is string) return w;
        var i = w as Int;
        if (i != null) {
            long v;
            if (long.TryParse(i.Digits, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out v)) return v;
            return Decode(w, typeof(BigInteger));
        }
        if (w is List<object>) return Fill((List<object>)w, typeof(List<object>), typeof(object));
        var o = w as Obj;
        if (w is Flt || (o != null && o.Only("float") != null)) {
            double d = Real(w);
            return (double)(float)d == d || double.IsNaN(d) ? (object)(float)d : (object)d;
        }
        if (o != null && o.Only("char") != null) return Character(w);
        if (o != null && o.Only("map") != null) return Decode(w, typeof(Dictionary<object, object>));
        if (o != null && o.Only("set") != null) return Fill(Tagged(w, "set"), typeof(HashSet<object>), typeof(object));
        if (o != null && o.Only("tuple") != null) {
            List<object> items = Tagged(w, "tuple");
            if (items.Count < 1 || items.Count > Tuples.Length) throw new Bad("a tuple of " + items.Count);
            // typed by its items, as Tuple.Create types the tests' own
            var vals = new object[items.Count];
            var types = new Type[items.Count];
            for (int k = 0; k < vals.Length; k++) {
                vals[k] = Any(items[k], depth + 1);
                types[k] = vals[k] == null ? typeof(object) : vals[k].GetType();
            }
            return Activator.CreateInstance(Tuples[items.Count - 1].MakeGenericType(types), vals);
        }
        throw new Bad("not a value of the wire");
    }
}
}
