// The program's side of the grader's channel (runners/job.h: calls read on fd 3, answers
// written on fd 4), compiled after the program's own code as its main (VERDICT_HOST). It holds
// no test and decides nothing: for each {"call":NAME,"args":[...]} it decodes the arguments
// into the parameter types of the signature the grader uses (verdict_sig), calls the
// program's function with them (the program's own overloads and conversions apply, as they
// would to the tests' arguments), and answers {"ok":V} with the result converted to the
// declared return type, or {"raise":TYPE,"message":TEXT} when the call threw.
#ifndef VERDICT_HOST_HPP
#define VERDICT_HOST_HPP

#include <cstdio>
#include <exception>
#include <string>
#include <tuple>
#include <unistd.h>

namespace verdict_host {

inline std::string raised(const char *type, const char *message)
{
    std::string o = "{\"raise\":";
    verdict_wire::put_string(o, type);
    o += ",\"message\":";
    verdict_wire::put_string(o, std::string(message).substr(0, 2000));
    return o + "}\n";
}

template <class F> struct entry;

template <class R, class... A> struct entry<R (*)(A...)> {
    using args_t = std::tuple<verdict_wire::plain<A>...>;

    template <size_t... I>
    static bool decode_args(const verdict_wire::value &a, args_t &t, std::index_sequence<I...>)
    {
        return a.kind == verdict_wire::value::array_v && a.items.size() == sizeof...(A) &&
               (verdict_wire::decode(a.items[I], std::get<I>(t)) && ...);
    }

    // One request line answered.
    template <class G> static std::string answer(const std::string &line, G &&call)
    {
        verdict_wire::value v;
        args_t args;
        const verdict_wire::value *a = v.field("args");
        if (!verdict_wire::parser(line.data(), line.size()).parse(v) || !(a = v.field("args")) ||
            !decode_args(*a, args, std::index_sequence_for<A...>{}))
            return raised("ValueError", "the grader's call could not be decoded");
        std::string o = "{\"ok\":";
        if constexpr (std::is_void_v<R>) {
            std::apply(call, args);
            o += "null";
        } else {
            R r = std::apply(call, args);
            verdict_wire::encode(o, static_cast<const verdict_wire::plain<R> &>(r));
        }
        return o + "}\n";
    }

    template <class G> static int serve(G &&call)
    {
        std::string line, pending;
        while (verdict_wire::read_line(line, pending, (size_t)-1)) {
            std::string out;
            try {
                out = answer(line, call);
            } catch (const std::exception &e) {
                out = raised("std::exception", e.what());
            } catch (...) {
                out = raised("", "");
            }
            std::fflush(stdout);
            if (!verdict_wire::write_all(out))
                _exit(1);
        }
        return 0;
    }
};

} // namespace verdict_host

// The program's main: serves the entry point NAME of the signature verdict_sig::NAME, calling
// FN (NAME itself; C's: a pointer the C code exports, languages/c.json).
#define VERDICT_HOST_VIA(NAME, FN)                                                           \
    int main()                                                                               \
    {                                                                                        \
        return verdict_host::entry<decltype(&verdict_sig::NAME)>::serve(                     \
            [](auto &...a) -> decltype(auto) { return FN(a...); });                          \
    }
#define VERDICT_HOST(NAME) VERDICT_HOST_VIA(NAME, NAME)

#endif
