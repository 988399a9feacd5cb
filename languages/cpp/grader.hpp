// The grader's side of the channel (runners/job.h: it writes calls on fd 4 and reads answers
// on fd 3), compiled with the tests into a program of its own (languages/README.md, "a
// compiled grader"). The entry point the tests call is a proxy of the prompt's own signature
// (verdict::proxy): each call is sent as {"call":NAME,"args":[...]} and its answer decoded by
// wire.hpp into the declared return type, so the tests compare values of their own types,
// never an object of the program's making. Exit status (languages/wire.md): 0 when the tests'
// main returned 0, 1 when a check failed (an assertion, a crash or an exception in the tests,
// a non-zero return or exit), 2 as soon as the program broke a call (raised, exited, closed its
// channel, answered out of protocol): _exit at once, so no handler of the tests can swallow it.
#ifndef VERDICT_GRADER_HPP
#define VERDICT_GRADER_HPP

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <unistd.h>

namespace verdict {

constexpr size_t max_line = (size_t)64 << 20;

[[noreturn]] inline void broke(const char *name, const char *why, const std::string &detail = "")
{
    std::fflush(stdout);
    std::fprintf(stderr, "verdict grader: the program broke the call of %s: %s%s%.2000s\n", name,
                 why, detail.empty() ? "" : ": ", detail.c_str());
    std::fflush(stderr);
    _exit(2);
}

inline void on_signal(int sig)
{
    static const char msg[] = "verdict grader: a check failed (the tests crashed or aborted)\n";
    ssize_t ignored = write(2, msg, sizeof(msg) - 1);
    (void)ignored;
    (void)sig;
    _exit(1);
}

// Sends one call and decodes its answer into R (void: the answer must be null).
template <class R, class... A> R call(const char *name, const A &...args)
{
    static std::string pending;
    if (!pending.empty()) // the program wrote what no call asked for
        broke(name, "it wrote on its channel between calls");
    std::string msg = "{\"call\":";
    verdict_wire::put_string(msg, name);
    msg += ",\"args\":[";
    bool first = true;
    ((msg += first ? "" : ",", first = false, verdict_wire::encode(msg, args)), ...);
    msg += "]}\n";
    std::fflush(stdout); // the tests' output before the program's
    std::string line;
    if (!verdict_wire::write_all(msg) || !verdict_wire::read_line(line, pending, max_line))
        broke(name, "it exited or closed its channel before answering");
    verdict_wire::value v;
    if (!verdict_wire::parser(line.data(), line.size()).parse(v) ||
        v.kind != verdict_wire::value::object_v)
        broke(name, "its answer is not a value of the wire");
    if (const verdict_wire::value *ok = verdict_wire::tagged(v, "ok")) {
        if constexpr (std::is_void_v<R>) {
            if (ok->kind != verdict_wire::value::null_v)
                broke(name, "a function of no value answered a value");
        } else {
            R r{};
            if (!verdict_wire::decode(*ok, r))
                broke(name, "its answer is not a value of the declared return type");
            return r;
        }
    } else {
        const verdict_wire::value *t = v.field("raise"), *m = v.field("message");
        if (v.fields.size() != 2 || !t || !m || t->kind != verdict_wire::value::string_v ||
            m->kind != verdict_wire::value::string_v)
            broke(name, "its answer is not a value of the wire");
        broke(name, "it raised", t->s + (m->s.empty() ? "" : ": ") + m->s);
    }
    if constexpr (!std::is_void_v<R>)
        return R{}; // not reached
}

template <class F> struct proxy;

// The entry point as the tests see it: callable with the declared parameter types (so that
// the tests' arguments convert as they would for the function), returning the declared type.
template <class R, class... A> struct proxy<R (*)(A...)> {
    const char *name;
    R operator()(A... a) const { return call<R, verdict_wire::plain<A>...>(name, a...); }
};

// The tests' main is the program's main; before it, the crash and abort of a check are made
// exit status 1, and so is any non-zero end of the tests (their main's return, an exit call).
inline void at_exit(int status, void *)
{
    std::fflush(stdout);
    if (status != 0)
        std::fprintf(stderr, "verdict grader: a check failed: the tests ended with status %d\n",
                     status);
    std::fflush(stderr);
    _exit(status == 0 ? 0 : 1);
}

struct arm {
    arm()
    {
        static const int sigs[] = {SIGABRT, SIGSEGV, SIGFPE, SIGBUS, SIGILL};
        for (int s : sigs)
            std::signal(s, on_signal);
        std::signal(SIGPIPE, SIG_IGN); // a closed channel is a broken call, seen by write
        on_exit(at_exit, nullptr);
    }
};
inline arm armed;

} // namespace verdict

#endif
