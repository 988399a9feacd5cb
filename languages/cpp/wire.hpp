// The typed wire (languages/wire.md) in C++17: a strict parser of one JSON text into a plain
// tree, and codecs between that tree and the standard types a harness signature uses: bool,
// char, the integer and floating types, std::string, C's strings (char * and const char *),
// vector, array, deque, list, map, unordered_map, set, unordered_set, pair, tuple, optional,
// and any nesting of them. A type
// without a codec fails to compile (a static_assert naming it), never at run time. The
// grader and the host both include this file; neither ever builds anything but these types.
#ifndef VERDICT_WIRE_HPP
#define VERDICT_WIRE_HPP

// Only what every codec needs is included here: the codecs of the other containers are
// compiled where their header was included before this file or before an inclusion of it
// again (the prompt's own includes, which the signature's types need anyway), so that a
// program pays for no header it does not use (libstdc++'s include guards tell).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <unistd.h>
#include <utility>
#include <vector>

namespace verdict_wire {

constexpr int max_depth = 100;

// The channel (runners/job.h: each side reads fd 3, writes fd 4). One line from fd 3 without
// its newline, what follows it kept in pending; false at EOF or past max bytes waiting.
inline bool read_line(std::string &line, std::string &pending, size_t max)
{
    char buf[65536];
    for (;;) {
        size_t nl = pending.find('\n');
        if (nl != std::string::npos) {
            line.assign(pending, 0, nl);
            pending.erase(0, nl + 1);
            return true;
        }
        if (pending.size() > max)
            return false;
        ssize_t n = read(3, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        pending.append(buf, (size_t)n);
    }
}

// All of s to fd 4; false when the other side is gone.
inline bool write_all(const std::string &s)
{
    for (size_t off = 0; off < s.size();) {
        ssize_t n = write(4, s.data() + off, s.size() - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        off += (size_t)n;
    }
    return true;
}

// A parsed value: exactly the JSON kinds; numbers keep their text.
struct value {
    enum kind_t { null_v, bool_v, int_v, float_v, string_v, array_v, object_v } kind = null_v;
    bool b = false;
    std::string s; // a number's text, a string's bytes
    std::vector<value> items;
    std::vector<std::pair<std::string, value>> fields;
    const value *field(const char *name) const
    {
        for (const auto &f : fields)
            if (f.first == name)
                return &f.second;
        return nullptr;
    }
};

// ---- parsing ------------------------------------------------------------------------------

class parser {
  public:
    parser(const char *p, size_t n) : p_(p), end_(p + n) {}
    // The whole text as one value; false on any deviation from the grammar.
    bool parse(value &v)
    {
        skip();
        if (!one(v, 0))
            return false;
        skip();
        return p_ == end_;
    }

  private:
    const char *p_, *end_;
    void skip()
    {
        while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\r' || *p_ == '\n'))
            p_++;
    }
    bool lit(const char *w)
    {
        size_t n = std::strlen(w);
        if ((size_t)(end_ - p_) < n || std::memcmp(p_, w, n) != 0)
            return false;
        p_ += n;
        return true;
    }
    static void utf8(std::string &o, unsigned long c)
    {
        if (c < 0x80) {
            o += (char)c;
        } else if (c < 0x800) {
            o += (char)(0xc0 | (c >> 6));
            o += (char)(0x80 | (c & 0x3f));
        } else if (c < 0x10000) {
            o += (char)(0xe0 | (c >> 12));
            o += (char)(0x80 | ((c >> 6) & 0x3f));
            o += (char)(0x80 | (c & 0x3f));
        } else {
            o += (char)(0xf0 | (c >> 18));
            o += (char)(0x80 | ((c >> 12) & 0x3f));
            o += (char)(0x80 | ((c >> 6) & 0x3f));
            o += (char)(0x80 | (c & 0x3f));
        }
    }
    bool hex4(unsigned long &c)
    {
        if (end_ - p_ < 4)
            return false;
        c = 0;
        for (int i = 0; i < 4; i++) {
            char h = *p_++;
            int d = h >= '0' && h <= '9' ? h - '0'
                    : h >= 'a' && h <= 'f' ? h - 'a' + 10
                    : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                           : -1;
            if (d < 0)
                return false;
            c = c * 16 + (unsigned long)d;
        }
        return true;
    }
    bool escape(std::string &o)
    {
        if (p_ >= end_)
            return false;
        char e = *p_++;
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        if (const char *k = std::strchr(from, e); k && e) {
            o += to[k - from];
            return true;
        }
        unsigned long c;
        if (e != 'u' || !hex4(c))
            return false;
        if (c >= 0xd800 && c < 0xdc00) { // a surrogate pair
            unsigned long lo;
            if (!lit("\\u") || !hex4(lo) || lo < 0xdc00 || lo >= 0xe000)
                return false;
            c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
        } else if (c >= 0xdc00 && c < 0xe000) {
            return false;
        }
        utf8(o, c);
        return true;
    }
    // Bytes pass as they are: C++ strings are bytes, and the host writes them unchanged.
    bool string(std::string &o)
    {
        if (!lit("\""))
            return false;
        while (p_ < end_ && *p_ != '"') {
            unsigned char c = (unsigned char)*p_;
            if (c < 0x20)
                return false;
            if (c == '\\') {
                p_++;
                if (!escape(o))
                    return false;
            } else {
                o += (char)c;
                p_++;
            }
        }
        return lit("\"");
    }
    static bool digit(char c) { return c >= '0' && c <= '9'; }
    bool number(value &v)
    {
        const char *s = p_;
        if (p_ < end_ && *p_ == '-')
            p_++;
        if (p_ < end_ && *p_ == '0')
            p_++;
        else if (p_ < end_ && digit(*p_))
            while (p_ < end_ && digit(*p_))
                p_++;
        else
            return false;
        bool flt = false;
        if (p_ < end_ && *p_ == '.') {
            flt = true;
            if (++p_ >= end_ || !digit(*p_))
                return false;
            while (p_ < end_ && digit(*p_))
                p_++;
        }
        if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
            flt = true;
            if (++p_ < end_ && (*p_ == '+' || *p_ == '-'))
                p_++;
            if (p_ >= end_ || !digit(*p_))
                return false;
            while (p_ < end_ && digit(*p_))
                p_++;
        }
        v.kind = flt ? value::float_v : value::int_v;
        v.s.assign(s, (size_t)(p_ - s));
        return true;
    }
    bool one(value &v, int depth)
    {
        if (depth > max_depth || p_ >= end_)
            return false;
        char c = *p_;
        if (c == 'n')
            return lit("null") && (v.kind = value::null_v, true);
        if (c == 't' || c == 'f') {
            v.kind = value::bool_v;
            v.b = c == 't';
            return lit(v.b ? "true" : "false");
        }
        if (c == '"') {
            v.kind = value::string_v;
            return string(v.s);
        }
        if (c == '[') {
            v.kind = value::array_v;
            p_++;
            skip();
            if (lit("]"))
                return true;
            for (;;) {
                v.items.emplace_back();
                skip();
                if (!one(v.items.back(), depth + 1))
                    return false;
                skip();
                if (lit("]"))
                    return true;
                if (!lit(","))
                    return false;
            }
        }
        if (c == '{') {
            v.kind = value::object_v;
            p_++;
            skip();
            if (lit("}"))
                return true;
            for (;;) {
                std::string k;
                skip();
                if (!string(k) || v.field(k.c_str()))
                    return false; // a key twice is out of protocol
                skip();
                if (!lit(":"))
                    return false;
                v.fields.emplace_back(std::move(k), value());
                skip();
                if (!one(v.fields.back().second, depth + 1))
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
};

// ---- encoding helpers -----------------------------------------------------------------------

inline void put_string(std::string &o, const std::string &s)
{
    o += '"';
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += (char)c;
        } else if (c < 0x20) {
            char b[8];
            std::snprintf(b, sizeof(b), "\\u%04x", c);
            o += b;
        } else {
            o += (char)c;
        }
    }
    o += '"';
}

inline void put_double(std::string &o, double d)
{
    if (std::isnan(d)) {
        o += "{\"float\":\"nan\"}";
        return;
    }
    if (std::isinf(d)) {
        o += d > 0 ? "{\"float\":\"inf\"}" : "{\"float\":\"-inf\"}";
        return;
    }
    char b[40];
    std::snprintf(b, sizeof(b), "%.17g", d);
    o += b;
    if (!std::strpbrk(b, ".eE")) // a float is never written as an integer
        o += ".0";
}

// The single field of an object of the form {"name": V}, or null.
inline const value *tagged(const value &v, const char *name)
{
    return v.kind == value::object_v && v.fields.size() == 1 && v.fields[0].first == name
               ? &v.fields[0].second
               : nullptr;
}

// ---- codecs ---------------------------------------------------------------------------------

template <class T> struct no_codec : std::false_type {};

template <class T, class = void> struct codec {
    static_assert(no_codec<T>::value, "verdict: this type has no wire codec (languages/cpp)");
};

template <class T> void encode(std::string &o, const T &v) { codec<T>::put(o, v); }
template <class T> bool decode(const value &v, T &out) { return codec<T>::get(v, out); }

template <> struct codec<bool> {
    static void put(std::string &o, bool b) { o += b ? "true" : "false"; }
    static bool get(const value &v, bool &b)
    {
        b = v.b;
        return v.kind == value::bool_v;
    }
};

template <> struct codec<char> {
    static void put(std::string &o, char c)
    {
        o += "{\"char\":";
        put_string(o, std::string(1, c));
        o += '}';
    }
    static bool get(const value &v, char &c)
    {
        const value *s = tagged(v, "char");
        if (!s || s->kind != value::string_v || s->s.size() != 1)
            return false;
        c = s->s[0];
        return true;
    }
};

// Integers but bool and char: a JSON integer that fits the type exactly.
template <class T>
struct codec<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                 !std::is_same_v<T, char>>> {
    static void put(std::string &o, T n)
    {
        char b[32];
        if constexpr (std::is_signed_v<T>)
            std::snprintf(b, sizeof(b), "%lld", (long long)n);
        else
            std::snprintf(b, sizeof(b), "%llu", (unsigned long long)n);
        o += b;
    }
    static bool get(const value &v, T &n)
    {
        if (v.kind != value::int_v)
            return false;
        errno = 0;
        char *e = nullptr;
        if constexpr (std::is_signed_v<T>) {
            long long x = std::strtoll(v.s.c_str(), &e, 10);
            if (errno || *e || x < (long long)std::numeric_limits<T>::min() ||
                x > (long long)std::numeric_limits<T>::max())
                return false;
            n = (T)x;
        } else {
            if (v.s[0] == '-')
                return false;
            unsigned long long x = std::strtoull(v.s.c_str(), &e, 10);
            if (errno || *e || x > (unsigned long long)std::numeric_limits<T>::max())
                return false;
            n = (T)x;
        }
        return true;
    }
};

template <class T> struct codec<T, std::enable_if_t<std::is_floating_point_v<T>>> {
    static void put(std::string &o, T d) { put_double(o, (double)d); }
    static bool get(const value &v, T &d)
    {
        if (const value *f = tagged(v, "float")) {
            if (f->kind != value::string_v)
                return false;
            double inf = std::numeric_limits<double>::infinity();
            double x = f->s == "nan"    ? std::numeric_limits<double>::quiet_NaN()
                       : f->s == "inf"  ? inf
                       : f->s == "-inf" ? -inf
                                        : 0.0;
            d = (T)x;
            return x != 0.0;
        }
        if (v.kind != value::float_v)
            return false;
        d = (T)std::strtod(v.s.c_str(), nullptr);
        return true;
    }
};

template <> struct codec<std::string> {
    static void put(std::string &o, const std::string &s) { put_string(o, s); }
    static bool get(const value &v, std::string &s)
    {
        s = v.s;
        return v.kind == value::string_v;
    }
};

// C's strings (char * and const char *, the C grader's: languages/c.json): a JSON string, or
// null for a null pointer; decoded into storage kept for the process's life (a C function may
// keep or return the pointer it was given), writable for char *. A string holding a NUL byte
// reads, as C does, up to it.
inline char *kept_string(const std::string &s)
{
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (!p)
        std::abort();
    std::memcpy(p, s.c_str(), s.size() + 1);
    return p;
}

template <class S>
struct codec<S, std::enable_if_t<std::is_same_v<S, char *> || std::is_same_v<S, const char *>>> {
    static void put(std::string &o, const char *s)
    {
        if (s)
            put_string(o, s);
        else
            o += "null";
    }
    static bool get(const value &v, S &s)
    {
        if (v.kind == value::null_v) {
            s = nullptr;
            return true;
        }
        if (v.kind != value::string_v)
            return false;
        s = kept_string(v.s);
        return true;
    }
};

// Sequences: a JSON array, or a tagged array ({"set": [...]}) for sets.
template <class C> void put_items(std::string &o, const C &c)
{
    o += '[';
    bool first = true;
    for (const auto &x : c) {
        if (!first)
            o += ',';
        first = false;
        encode(o, x);
    }
    o += ']';
}

template <class C, class Add> bool get_items(const value *v, Add add)
{
    if (!v || v->kind != value::array_v)
        return false;
    for (const auto &x : v->items) {
        typename C::value_type e{};
        if (!decode(x, e) || !add(std::move(e)))
            return false;
    }
    return true;
}

template <class C> struct seq_codec {
    static void put(std::string &o, const C &c) { put_items(o, c); }
    static bool get(const value &v, C &c)
    {
        c.clear();
        return get_items<C>(&v, [&](typename C::value_type &&e) {
            c.push_back(std::move(e));
            return true;
        });
    }
};
template <class T, class A> struct codec<std::vector<T, A>> : seq_codec<std::vector<T, A>> {};
// A set never holds an element twice: one sent twice is out of protocol.
template <class C> struct set_codec {
    static void put(std::string &o, const C &c)
    {
        o += "{\"set\":";
        put_items(o, c);
        o += '}';
    }
    static bool get(const value &v, C &c)
    {
        c.clear();
        return get_items<C>(tagged(v, "set"), [&](typename C::value_type &&e) {
            return c.insert(std::move(e)).second;
        });
    }
};
template <class C> struct map_codec {
    static void put(std::string &o, const C &c)
    {
        o += "{\"map\":[";
        bool first = true;
        for (const auto &kv : c) {
            o += first ? "[" : ",[";
            first = false;
            encode(o, kv.first);
            o += ',';
            encode(o, kv.second);
            o += ']';
        }
        o += "]}";
    }
    static bool get(const value &v, C &c)
    {
        c.clear();
        const value *m = tagged(v, "map");
        if (!m || m->kind != value::array_v)
            return false;
        for (const auto &kv : m->items) {
            typename C::key_type k{};
            typename C::mapped_type x{};
            if (kv.kind != value::array_v || kv.items.size() != 2 || !decode(kv.items[0], k) ||
                !decode(kv.items[1], x) || !c.emplace(std::move(k), std::move(x)).second)
                return false;
        }
        return true;
    }
};
template <class... T> struct codec<std::tuple<T...>> {
    static void put(std::string &o, const std::tuple<T...> &t)
    {
        o += "{\"tuple\":[";
        std::apply(
            [&](const auto &...x) {
                bool first = true;
                ((o += first ? "" : ",", first = false, encode(o, x)), ...);
            },
            t);
        o += "]}";
    }
    static bool get(const value &v, std::tuple<T...> &t)
    {
        const value *a = tagged(v, "tuple");
        if (!a || a->kind != value::array_v || a->items.size() != sizeof...(T))
            return false;
        return get_at(a->items, t, std::index_sequence_for<T...>{});
    }
    template <size_t... I>
    static bool get_at(const std::vector<value> &items, std::tuple<T...> &t,
                       std::index_sequence<I...>)
    {
        return (decode(items[I], std::get<I>(t)) && ...);
    }
};

template <class A, class B> struct codec<std::pair<A, B>> {
    static void put(std::string &o, const std::pair<A, B> &p)
    {
        o += "{\"tuple\":[";
        encode(o, p.first);
        o += ',';
        encode(o, p.second);
        o += "]}";
    }
    static bool get(const value &v, std::pair<A, B> &p)
    {
        const value *a = tagged(v, "tuple");
        return a && a->kind == value::array_v && a->items.size() == 2 &&
               decode(a->items[0], p.first) && decode(a->items[1], p.second);
    }
};

// The type a value of a parameter or a result crosses as.
template <class T> using plain = std::remove_cv_t<std::remove_reference_t<T>>;

} // namespace verdict_wire

#endif

// The codecs of the other containers, each compiled once its header is in: this part is
// read again at every inclusion of the file (a grader includes it once before the prompt's
// own includes, which may then be precompiled, and once after them).
namespace verdict_wire {
#if defined(_GLIBCXX_DEQUE) && !defined(VERDICT_WIRE_DEQUE_)
#define VERDICT_WIRE_DEQUE_
template <class T, class A> struct codec<std::deque<T, A>> : seq_codec<std::deque<T, A>> {};
#endif
#if defined(_GLIBCXX_LIST) && !defined(VERDICT_WIRE_LIST_)
#define VERDICT_WIRE_LIST_
template <class T, class A> struct codec<std::list<T, A>> : seq_codec<std::list<T, A>> {};
#endif
#if defined(_GLIBCXX_ARRAY) && !defined(VERDICT_WIRE_ARRAY_)
#define VERDICT_WIRE_ARRAY_
template <class T, size_t N> struct codec<std::array<T, N>> {
    static void put(std::string &o, const std::array<T, N> &c) { put_items(o, c); }
    static bool get(const value &v, std::array<T, N> &c)
    {
        if (v.kind != value::array_v || v.items.size() != N)
            return false;
        for (size_t i = 0; i < N; i++)
            if (!decode(v.items[i], c[i]))
                return false;
        return true;
    }
};
#endif
#if defined(_GLIBCXX_SET) && !defined(VERDICT_WIRE_SET_)
#define VERDICT_WIRE_SET_
template <class... P> struct codec<std::set<P...>> : set_codec<std::set<P...>> {};
#endif
#if defined(_GLIBCXX_UNORDERED_SET) && !defined(VERDICT_WIRE_UNORDERED_SET_)
#define VERDICT_WIRE_UNORDERED_SET_
template <class... P>
struct codec<std::unordered_set<P...>> : set_codec<std::unordered_set<P...>> {};
#endif
#if defined(_GLIBCXX_MAP) && !defined(VERDICT_WIRE_MAP_)
#define VERDICT_WIRE_MAP_
template <class... P> struct codec<std::map<P...>> : map_codec<std::map<P...>> {};
#endif
#if defined(_GLIBCXX_UNORDERED_MAP) && !defined(VERDICT_WIRE_UNORDERED_MAP_)
#define VERDICT_WIRE_UNORDERED_MAP_
template <class... P>
struct codec<std::unordered_map<P...>> : map_codec<std::unordered_map<P...>> {};
#endif
#if defined(_GLIBCXX_OPTIONAL) && !defined(VERDICT_WIRE_OPTIONAL_)
#define VERDICT_WIRE_OPTIONAL_
template <class T> struct codec<std::optional<T>> {
    static void put(std::string &o, const std::optional<T> &x)
    {
        if (x)
            encode(o, *x);
        else
            o += "null";
    }
    static bool get(const value &v, std::optional<T> &x)
    {
        x.reset();
        if (v.kind == value::null_v)
            return true;
        T e{};
        if (!decode(v, e))
            return false;
        x = std::move(e);
        return true;
    }
};
#endif
} // namespace verdict_wire
