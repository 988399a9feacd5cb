// The program's side of the grader's channel (runners/job.h: calls read on fd 3, answers
// written on fd 4): the module verdict_host (the file verdict_host.d beside the program, which
// the compile's -i builds), whose verdictServe the program's main calls. It holds no test and
// decides nothing: for each {"call":NAME,"args":[...]} it decodes the arguments into the
// parameter types of the signature the grader uses (sig: the prompt's declaration), calls the
// program's function with them (its own overloads and conversions apply, as they would to the
// tests' arguments), and answers {"ok":V} with the result as the declared return type, or
// {"raise":TYPE,"message":TEXT} when the call threw. The program's own unittest blocks do not
// run: its main serves the grader.

shared static this()
{
    import core.runtime : Runtime, UnitTestResult;

    Runtime.extendedModuleUnitTester = function UnitTestResult() {
        UnitTestResult r;
        r.runMain = true;
        return r;
    };
}

string verdictRaised(string type, string message)
{
    char[] o = `{"raise":`.dup;
    verdictPutString(o, type);
    o ~= `,"message":`;
    verdictPutString(o, message.length > 2000 ? message[0 .. 2000] : message);
    o ~= "}\n";
    return o.idup;
}

// x as a value of the declared type R: as it converts implicitly, or, for numbers and arrays
// of them that do not (a long where an int is declared), by value, refused when it does not
// fit (std.conv.to throws: the call raised).
R verdictAs(R, X)(X x)
{
    import std.traits : isDynamicArray, isIntegral, isSomeString, Unqual;

    static if (is(X : R)) {
        return x;
    } else static if (isIntegral!(Unqual!X) && isIntegral!(Unqual!R)) {
        import std.conv : to;

        return to!R(x);
    } else static if (isDynamicArray!X && isDynamicArray!R && !isSomeString!X &&
                      !isSomeString!R) {
        alias E = Unqual!(typeof(R.init[0]));
        auto r = new E[x.length];
        foreach (k, e; x)
            r[k] = verdictAs!E(e);
        return cast(R) r;
    } else {
        static assert(0, "verdict: the answer's type " ~ X.stringof
                ~ " does not convert to the declared " ~ R.stringof);
    }
}

// One request line answered.
string verdictAnswer(alias sig, alias fn)(string line)
{
    import std.traits : Parameters, ReturnType;

    alias P = Parameters!sig;
    alias R = ReturnType!sig;
    VerdictValue v;
    P args;
    if (!VerdictParser(line).parse(v))
        return verdictRaised("ValueError", "the grader's call could not be decoded");
    auto a = v.field("args");
    if (a is null || a.kind != VerdictValue.Kind.array_ || a.items.length != P.length)
        return verdictRaised("ValueError", "the grader's call could not be decoded");
    foreach (k, ref x; args)
        if (!verdictDecode(a.items[k], x))
            return verdictRaised("ValueError", "the grader's call could not be decoded");
    char[] o = `{"ok":`.dup;
    static if (is(R == void)) {
        fn(args);
        o ~= "null";
    } else {
        R r = verdictAs!R(fn(args));
        verdictEncode(o, r);
    }
    o ~= "}\n";
    return o.idup;
}

// Serves the entry point fn, declared as sig, until the grader closes the channel.
void verdictServe(alias sig, alias fn)()
{
    import core.stdc.stdio : fflush, stdout;
    import core.sys.posix.unistd : _exit;

    string line;
    char[] pending;
    while (verdictReadLine(line, pending, size_t.max)) {
        string o;
        try {
            o = verdictAnswer!(sig, fn)(line);
        } catch (Throwable e) {
            o = verdictRaised(typeid(e).name, e.msg.idup);
        }
        fflush(stdout);
        if (!verdictWriteAll(o))
            _exit(1);
    }
}
