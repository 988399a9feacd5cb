// The typed wire (languages/wire.md) in D: a strict parser of one JSON text into a plain tree,
// and codecs between that tree and the types a harness signature uses: bool, the character,
// integer and floating types, strings, dynamic and static arrays, associative arrays,
// std.typecons Tuple and Nullable, and any nesting of them. A type without a codec fails to
// compile (a static assert naming it), never at run time. The grader and the host both join
// this file (at module level: each import is local to the code that needs it, so that the
// tests' and the program's names are never shadowed); neither ever builds anything but these
// types.

enum verdictMaxDepth = 100;
enum size_t verdictMaxLine = cast(size_t) 64 << 20;

// The channel (runners/job.h: each side reads fd 3, writes fd 4). One line from fd 3 without
// its newline, what follows it kept in pending; false at EOF or past max bytes waiting.
bool verdictReadLine(ref string line, ref char[] pending, size_t max)
{
    import core.stdc.errno : errno, EINTR;
    import core.sys.posix.unistd : read;

    char[65536] buf;
    size_t scanned = 0;
    for (;;) {
        foreach (nl; scanned .. pending.length)
            if (pending[nl] == '\n') {
                line = pending[0 .. nl].idup;
                pending = pending[nl + 1 .. $].dup;
                return true;
            }
        scanned = pending.length;
        if (pending.length > max)
            return false;
        auto n = read(3, buf.ptr, buf.length);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        pending ~= buf[0 .. n];
    }
}

// All of s to fd 4; false when the other side is gone.
bool verdictWriteAll(const(char)[] s)
{
    import core.stdc.errno : errno, EINTR;
    import core.sys.posix.unistd : write;

    while (s.length > 0) {
        auto n = write(4, s.ptr, s.length);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        s = s[n .. $];
    }
    return true;
}

// A parsed value: exactly the JSON kinds; numbers keep their text.
struct VerdictValue {
    enum Kind { null_, bool_, int_, float_, string_, array_, object_ }
    Kind kind;
    bool b;
    string s; // a number's text, a string's bytes
    VerdictValue[] items;
    string[] keys; // an object's fields, in order
    VerdictValue[] vals;

    const(VerdictValue)* field(string name) const
    {
        foreach (i, k; keys)
            if (k == name)
                return &vals[i];
        return null;
    }
}

// The single field of an object of the form {"name": V}, or null.
const(VerdictValue)* verdictTagged(ref const VerdictValue v, string name)
{
    return v.kind == VerdictValue.Kind.object_ && v.keys.length == 1 && v.keys[0] == name
        ? &v.vals[0] : null;
}

struct VerdictParser {
    const(char)[] t;
    size_t i;

    // The whole text as one value; false on any deviation from the grammar.
    bool parse(ref VerdictValue v)
    {
        skip();
        if (!one(v, 0))
            return false;
        skip();
        return i == t.length;
    }

private:
    void skip()
    {
        while (i < t.length && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n'))
            i++;
    }

    bool lit(string w)
    {
        if (t.length - i < w.length || t[i .. i + w.length] != w)
            return false;
        i += w.length;
        return true;
    }

    static void utf8(ref char[] o, uint c)
    {
        if (c < 0x80) {
            o ~= cast(char) c;
        } else if (c < 0x800) {
            o ~= cast(char)(0xc0 | (c >> 6));
            o ~= cast(char)(0x80 | (c & 0x3f));
        } else if (c < 0x10000) {
            o ~= cast(char)(0xe0 | (c >> 12));
            o ~= cast(char)(0x80 | ((c >> 6) & 0x3f));
            o ~= cast(char)(0x80 | (c & 0x3f));
        } else {
            o ~= cast(char)(0xf0 | (c >> 18));
            o ~= cast(char)(0x80 | ((c >> 12) & 0x3f));
            o ~= cast(char)(0x80 | ((c >> 6) & 0x3f));
            o ~= cast(char)(0x80 | (c & 0x3f));
        }
    }

    bool hex4(ref uint c)
    {
        if (t.length - i < 4)
            return false;
        c = 0;
        foreach (k; 0 .. 4) {
            char h = t[i++];
            int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
            if (d < 0)
                return false;
            c = c * 16 + d;
        }
        return true;
    }

    bool escape(ref char[] o)
    {
        if (i >= t.length)
            return false;
        char e = t[i++];
        switch (e) {
        case '"': o ~= '"'; return true;
        case '\\': o ~= '\\'; return true;
        case '/': o ~= '/'; return true;
        case 'b': o ~= '\b'; return true;
        case 'f': o ~= '\f'; return true;
        case 'n': o ~= '\n'; return true;
        case 'r': o ~= '\r'; return true;
        case 't': o ~= '\t'; return true;
        case 'u': break;
        default: return false;
        }
        uint c;
        if (!hex4(c))
            return false;
        if (c >= 0xd800 && c < 0xdc00) { // a surrogate pair
            uint lo;
            if (!lit("\\u") || !hex4(lo) || lo < 0xdc00 || lo >= 0xe000)
                return false;
            c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
        } else if (c >= 0xdc00 && c < 0xe000) {
            return false;
        }
        utf8(o, c);
        return true;
    }

    // Bytes pass as they are, as the host wrote them.
    bool str(ref string s)
    {
        if (!lit("\""))
            return false;
        char[] o;
        while (i < t.length && t[i] != '"') {
            char c = t[i];
            if (c < 0x20)
                return false;
            if (c == '\\') {
                i++;
                if (!escape(o))
                    return false;
            } else {
                o ~= c;
                i++;
            }
        }
        s = o.idup;
        return lit("\"");
    }

    static bool digit(char c) { return c >= '0' && c <= '9'; }

    bool number(ref VerdictValue v)
    {
        size_t s = i;
        if (i < t.length && t[i] == '-')
            i++;
        if (i < t.length && t[i] == '0')
            i++;
        else if (i < t.length && digit(t[i]))
            while (i < t.length && digit(t[i]))
                i++;
        else
            return false;
        bool flt = false;
        if (i < t.length && t[i] == '.') {
            flt = true;
            if (++i >= t.length || !digit(t[i]))
                return false;
            while (i < t.length && digit(t[i]))
                i++;
        }
        if (i < t.length && (t[i] == 'e' || t[i] == 'E')) {
            flt = true;
            if (++i < t.length && (t[i] == '+' || t[i] == '-'))
                i++;
            if (i >= t.length || !digit(t[i]))
                return false;
            while (i < t.length && digit(t[i]))
                i++;
        }
        v.kind = flt ? VerdictValue.Kind.float_ : VerdictValue.Kind.int_;
        v.s = t[s .. i].idup;
        return true;
    }

    bool one(ref VerdictValue v, int depth)
    {
        if (depth > verdictMaxDepth || i >= t.length)
            return false;
        char c = t[i];
        if (c == 'n') {
            v.kind = VerdictValue.Kind.null_;
            return lit("null");
        }
        if (c == 't' || c == 'f') {
            v.kind = VerdictValue.Kind.bool_;
            v.b = c == 't';
            return lit(v.b ? "true" : "false");
        }
        if (c == '"') {
            v.kind = VerdictValue.Kind.string_;
            return str(v.s);
        }
        if (c == '[') {
            v.kind = VerdictValue.Kind.array_;
            i++;
            skip();
            if (lit("]"))
                return true;
            for (;;) {
                v.items ~= VerdictValue.init;
                skip();
                if (!one(v.items[$ - 1], depth + 1))
                    return false;
                skip();
                if (lit("]"))
                    return true;
                if (!lit(","))
                    return false;
            }
        }
        if (c == '{') {
            v.kind = VerdictValue.Kind.object_;
            i++;
            skip();
            if (lit("}"))
                return true;
            for (;;) {
                string k;
                skip();
                if (!str(k) || v.field(k) !is null)
                    return false; // a key twice is out of protocol
                skip();
                if (!lit(":"))
                    return false;
                v.keys ~= k;
                v.vals ~= VerdictValue.init;
                skip();
                if (!one(v.vals[$ - 1], depth + 1))
                    return false;
                skip();
                if (lit("}"))
                    return true;
                if (!lit(","))
                    return false;
            }
        }
        return number(v);
    }
}

// ---- encoding -------------------------------------------------------------------------------

void verdictPutString(ref char[] o, const(char)[] s)
{
    static immutable hexd = "0123456789abcdef";
    o ~= '"';
    foreach (char c; s) {
        if (c == '"' || c == '\\') {
            o ~= '\\';
            o ~= c;
        } else if (c < 0x20) {
            o ~= "\\u00";
            o ~= hexd[c >> 4];
            o ~= hexd[c & 15];
        } else {
            o ~= c;
        }
    }
    o ~= '"';
}

void verdictPutDouble(ref char[] o, double d)
{
    import core.stdc.stdio : snprintf;
    import std.math : isInfinity, isNaN;

    if (isNaN(d)) {
        o ~= `{"float":"nan"}`;
        return;
    }
    if (isInfinity(d)) {
        o ~= d > 0 ? `{"float":"inf"}` : `{"float":"-inf"}`;
        return;
    }
    char[40] b;
    int n = snprintf(b.ptr, b.length, "%.17g", d);
    o ~= b[0 .. n];
    foreach (c; b[0 .. n])
        if (c == '.' || c == 'e' || c == 'E')
            return;
    o ~= ".0"; // a float is never written as an integer
}

// The value v of type T on the wire, appended to o.
void verdictEncode(T)(ref char[] o, auto ref T v)
{
    import std.traits : isAssociativeArray, isDynamicArray, isFloatingPoint, isIntegral,
        isSomeChar, isSomeString, isStaticArray, Unqual;
    import std.typecons : isTuple, Nullable;
    import std.utf : encode, toUTF8;

    alias U = Unqual!T;
    static if (is(U == bool)) {
        o ~= v ? "true" : "false";
    } else static if (isSomeChar!U) {
        char[4] b;
        o ~= `{"char":`;
        verdictPutString(o, b[0 .. encode(b, cast(dchar) v)]);
        o ~= '}';
    } else static if (isIntegral!U) {
        char[24] b;
        size_t at = b.length;
        bool neg = v < 0;
        ulong m = neg ? 0 - cast(ulong) cast(long) v : cast(ulong) v;
        do {
            b[--at] = cast(char)('0' + m % 10);
            m /= 10;
        } while (m);
        if (neg)
            b[--at] = '-';
        o ~= b[at .. $];
    } else static if (isFloatingPoint!U) {
        verdictPutDouble(o, cast(double) v);
    } else static if (isSomeString!U) {
        verdictPutString(o, toUTF8(v));
    } else static if (is(U == Nullable!E, E)) {
        if (v.isNull)
            o ~= "null";
        else
            verdictEncode(o, v.get);
    } else static if (isTuple!U) {
        o ~= `{"tuple":[`;
        static foreach (k; 0 .. U.Types.length) {
            static if (k > 0)
                o ~= ',';
            verdictEncode(o, v[k]);
        }
        o ~= "]}";
    } else static if (isAssociativeArray!U) {
        o ~= `{"map":[`;
        bool first = true;
        foreach (key, val; v) {
            if (!first)
                o ~= ',';
            first = false;
            o ~= '[';
            verdictEncode(o, key);
            o ~= ',';
            verdictEncode(o, val);
            o ~= ']';
        }
        o ~= "]}";
    } else static if (isDynamicArray!U || isStaticArray!U) {
        o ~= '[';
        foreach (k, ref e; v) {
            if (k > 0)
                o ~= ',';
            verdictEncode(o, e);
        }
        o ~= ']';
    } else {
        static assert(0, "verdict: the type " ~ T.stringof ~ " has no wire codec (languages/d)");
    }
}

// ---- decoding -------------------------------------------------------------------------------

// v decoded into out, a value of type T; false when v is not a value of T (a number that T
// cannot hold exactly included).
bool verdictDecode(T)(ref const VerdictValue v, ref T out_)
{
    import std.traits : isAssociativeArray, isDynamicArray, isFloatingPoint, isIntegral,
        isSomeChar, isSomeString, isStaticArray, KeyType, Unqual, ValueType;
    import std.typecons : isTuple, Nullable;
    import std.utf : decode, toUTF16, toUTF32, UTFException;
    import core.stdc.stdlib : strtod;

    alias K = VerdictValue.Kind;
    alias U = Unqual!T;
    static if (is(U == bool)) {
        out_ = v.b;
        return v.kind == K.bool_;
    } else static if (isSomeChar!U) {
        auto s = verdictTagged(v, "char");
        if (s is null || s.kind != K.string_ || s.s.length == 0)
            return false;
        try {
            size_t at = 0;
            dchar c = decode(s.s, at);
            if (at != s.s.length || c > U.max)
                return false;
            out_ = cast(U) c;
            return true;
        } catch (UTFException) {
            return false;
        }
    } else static if (isIntegral!U) {
        if (v.kind != K.int_)
            return false;
        bool neg = v.s[0] == '-';
        ulong m = 0;
        foreach (c; v.s[neg .. $]) {
            if (m > (ulong.max - (c - '0')) / 10)
                return false;
            m = m * 10 + (c - '0');
        }
        if (neg ? m > cast(ulong) U.max + 1 || (m && U.min == 0) : m > U.max)
            return false;
        out_ = neg ? cast(U)(0 - m) : cast(U) m;
        return true;
    } else static if (isFloatingPoint!U) {
        if (auto f = verdictTagged(v, "float")) {
            if (f.kind != K.string_)
                return false;
            if (f.s == "nan")
                out_ = U.nan;
            else if (f.s == "inf")
                out_ = U.infinity;
            else if (f.s == "-inf")
                out_ = -U.infinity;
            else
                return false;
            return true;
        }
        if (v.kind != K.float_)
            return false;
        out_ = cast(U) strtod((v.s ~ '\0').ptr, null);
        return true;
    } else static if (isSomeString!U) {
        if (v.kind != K.string_)
            return false;
        static if (is(typeof(U.init[0]) : const(char))) {
            out_ = cast(T) v.s.dup;
            return true;
        } else {
            try {
                static if (is(typeof(U.init[0]) : const(wchar)))
                    out_ = cast(T) toUTF16(v.s);
                else
                    out_ = cast(T) toUTF32(v.s);
                return true;
            } catch (UTFException) {
                return false;
            }
        }
    } else static if (is(U == Nullable!E, E)) {
        if (v.kind == K.null_) {
            out_ = U.init;
            return true;
        }
        E e;
        if (!verdictDecode(v, e))
            return false;
        out_ = U(e);
        return true;
    } else static if (isTuple!U) {
        auto a = verdictTagged(v, "tuple");
        if (a is null || a.kind != K.array_ || a.items.length != U.Types.length)
            return false;
        U r;
        static foreach (k; 0 .. U.Types.length)
            if (!verdictDecode(a.items[k], r[k]))
                return false;
        out_ = r;
        return true;
    } else static if (isAssociativeArray!U) {
        auto m = verdictTagged(v, "map");
        if (m is null || m.kind != K.array_)
            return false;
        Unqual!(KeyType!U) key;
        Unqual!(ValueType!U) val;
        U r;
        foreach (ref pair; m.items) {
            if (pair.kind != K.array_ || pair.items.length != 2 ||
                !verdictDecode(pair.items[0], key) || !verdictDecode(pair.items[1], val) ||
                (key in r) !is null)
                return false; // a key twice is no map
            r[key] = val;
        }
        out_ = r;
        return true;
    } else static if (isStaticArray!U) {
        if (v.kind != K.array_ || v.items.length != U.length)
            return false;
        U r;
        foreach (k, ref e; r)
            if (!verdictDecode(v.items[k], e))
                return false;
        out_ = r;
        return true;
    } else static if (isDynamicArray!U) {
        if (v.kind != K.array_)
            return false;
        alias E = Unqual!(typeof(U.init[0]));
        auto r = new E[v.items.length];
        foreach (k, ref e; r)
            if (!verdictDecode(v.items[k], e))
                return false;
        out_ = cast(T) r;
        return true;
    } else {
        static assert(0, "verdict: the type " ~ T.stringof ~ " has no wire codec (languages/d)");
    }
}
