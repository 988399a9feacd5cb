// The grader's side of the channel (runners/job.h: it writes calls on fd 4 and reads answers
// on fd 3), compiled with the tests into a program of its own (languages/README.md, "a
// compiled grader"). The entry point the tests call is a proxy with the prompt's own
// declaration, whose body is verdictCall: each call is sent as {"call":NAME,"args":[...]} and
// its answer decoded by wire.d into the declared return type, so the tests compare values of
// their own types, never an object of the program's making. Exit status (languages/wire.md):
// 0 when the tests ran to their end and passed (druntime's unittest runner, or main), 1 when a
// check failed (an assertion, an exception or a crash in the tests, any non-zero end), 2 as
// soon as the program broke a call (raised, exited, closed its channel, answered out of
// protocol): _exit at once, so that no handler of the tests can swallow it.

void verdictBroke(string name, string why, string detail = "")
{
    import core.stdc.stdio : fflush, fprintf, stderr, stdout;
    import core.sys.posix.unistd : _exit;

    if (detail.length > 2000)
        detail = detail[0 .. 2000];
    fflush(stdout);
    fprintf(stderr, "verdict grader: the program broke the call of %.*s: %.*s%s%.*s\n",
            cast(int) name.length, name.ptr, cast(int) why.length, why.ptr,
            detail.length ? ": ".ptr : "".ptr, cast(int) detail.length, detail.ptr);
    fflush(stderr);
    _exit(2);
}

// One call sent, its answer decoded into R (void: the answer must be null).
R verdictCall(R, string name, A...)(auto ref A args)
{
    import core.stdc.stdio : fflush, stdout;

    static char[] pending;
    alias K = VerdictValue.Kind;
    if (pending.length) // the program wrote what no call asked for
        verdictBroke(name, "it wrote on its channel between calls");
    char[] msg = `{"call":`.dup;
    verdictPutString(msg, name);
    msg ~= `,"args":[`;
    foreach (k, ref a; args) {
        if (k > 0)
            msg ~= ',';
        verdictEncode(msg, a);
    }
    msg ~= "]}\n";
    fflush(stdout); // the tests' output before the program's
    string line;
    if (!verdictWriteAll(msg) || !verdictReadLine(line, pending, verdictMaxLine))
        verdictBroke(name, "it exited or closed its channel before answering");
    VerdictValue v;
    if (!VerdictParser(line).parse(v) || v.kind != K.object_)
        verdictBroke(name, "its answer is not a value of the wire");
    if (auto ok = verdictTagged(v, "ok")) {
        static if (is(R == void)) {
            if (ok.kind != K.null_)
                verdictBroke(name, "a function of no value answered a value");
            return;
        } else {
            R r;
            if (!verdictDecode(*ok, r))
                verdictBroke(name, "its answer is not a value of the declared return type");
            return r;
        }
    }
    auto t = v.field("raise"), m = v.field("message");
    if (v.keys.length != 2 || t is null || m is null || t.kind != K.string_ ||
        m.kind != K.string_)
        verdictBroke(name, "its answer is not a value of the wire");
    verdictBroke(name, "it raised", t.s ~ (m.s.length ? ": " : "") ~ m.s);
    assert(0);
}

extern (C) int on_exit(void function(int, void*) nothrow @nogc, void*) nothrow @nogc;

extern (C) void verdictAtExit(int status, void*) nothrow @nogc
{
    import core.stdc.stdio : fflush, fprintf, stderr, stdout;
    import core.sys.posix.unistd : _exit;

    fflush(stdout);
    if (status != 0)
        fprintf(stderr, "verdict grader: a check failed: the tests ended with status %d\n",
                status);
    fflush(stderr);
    _exit(status == 0 ? 0 : 1);
}

extern (C) void verdictOnSignal(int sig) nothrow @nogc
{
    import core.sys.posix.unistd : _exit, write;

    static immutable msg = "verdict grader: a check failed (the tests crashed or aborted)\n";
    write(2, msg.ptr, msg.length);
    _exit(1);
}

// Before the tests: their crash or abort is exit status 1, and so is any non-zero end (a
// failed unittest, main's return, an exit call); a closed channel is a broken call, which
// write sees.
shared static this()
{
    import core.stdc.signal : signal, SIGABRT, SIGFPE, SIGILL, SIGSEGV;
    import core.sys.posix.signal : SIGBUS, SIGPIPE, SIG_IGN;

    foreach (s; [SIGABRT, SIGSEGV, SIGFPE, SIGBUS, SIGILL])
        signal(s, &verdictOnSignal);
    signal(SIGPIPE, SIG_IGN);
    on_exit(&verdictAtExit, null);
}
