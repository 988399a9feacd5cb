// The grader's side of the channel (runners/job.h: it writes calls on fd 4 and reads answers
// on fd 3), compiled with the tests into an assembly of its own (languages/README.md, "a
// compiled grader") that mono loads from memory, with VerdictGrader.Main as its entry point:
// it opens the channel, makes a failed Debug.Assert end the run, and runs the tests'
// Problem.Main. The entry point the tests call is a proxy of the prompt's own declaration
// whose body is VerdictGrader.Call: the arguments are sent as {"call":NAME,"args":[...]} and
// the answer decoded by VerdictWire into the proxy's declared return type, so the tests
// compare values of the framework's own types, never an object of the program's making. Exit
// status (languages/wire.md): 0 when the tests' Main returned, 1 when a check failed (a
// Debug.Assert, an exception of the tests), 2 as soon as the program broke a call (raised,
// exited, closed its channel, answered out of protocol).
namespace VerdictRuntime {
using System;
using System.Diagnostics;
using System.IO;
using System.Reflection;
using System.Text;

sealed class VerdictAssertFailed : TraceListener {
    public override void Write(string m) {}
    public override void WriteLine(string m) {}
    public override void Fail(string message, string detail) {
        Console.Out.Flush();
        Console.Error.WriteLine("verdict grader: a check failed: Assertion failed." +
                                (string.IsNullOrEmpty(message) ? "" : " " + message) + "\n" +
                                Environment.StackTrace);
        Console.Error.Flush();
        Environment.Exit(1);
    }
}

static class VerdictGrader {
    static VerdictWire.Lines input;
    static Stream output;

    static void Broke(string name, string why) {
        Console.Out.Flush();
        if (why.Length > 2000) why = why.Substring(0, 2000);
        Console.Error.WriteLine("verdict grader: the program broke the call of " + name + ": " + why);
        Console.Error.Flush();
        Environment.Exit(2);
    }

    /// <summary>One call of m (the proxy: its name, its declared return type) with these arguments.</summary>
    public static object Call(MethodBase m, object[] args) {
        string name = m.Name;
        Type ret = ((MethodInfo)m).ReturnType;
        var msg = new StringBuilder("{\"call\":");
        VerdictWire.PutString(msg, name);
        msg.Append(",\"args\":[");
        for (int i = 0; i < args.Length; i++) {
            if (i > 0) msg.Append(',');
            VerdictWire.Encode(msg, args[i]); // a test's argument the wire cannot carry: a failed check
        }
        msg.Append("]}");
        Console.Out.Flush(); // the tests' output before the program's
        string line = null;
        try {
            if (input.Pending) Broke(name, "it wrote on its channel between calls");
            VerdictWire.Write(output, msg.ToString());
            line = input.Next();
        } catch (IOException) {
        } catch (VerdictWire.Bad) {
        }
        if (line == null) Broke(name, "it exited or closed its channel before answering");
        object v = null;
        try {
            v = VerdictWire.Parse(line);
        } catch (VerdictWire.Bad e) {
            Broke(name, "its answer is not a value of the wire: " + e.Message);
        }
        var o = v as VerdictWire.Obj;
        if (o != null && o.Keys.Count == 1 && o.Keys[0] == "ok") {
            try {
                if (ret == typeof(void)) {
                    if (o.Vals[0] != VerdictWire.Null) Broke(name, "a method of no value answered a value");
                    return null;
                }
                return VerdictWire.Decode(o.Vals[0], ret);
            } catch (VerdictWire.Bad e) {
                Broke(name, "its answer is not a value of the declared return type: " + e.Message);
            }
        }
        if (o != null && o.Keys.Count == 2 && o.Keys[0] == "raise" && o.Keys[1] == "message" &&
            o.Vals[0] is string && o.Vals[1] is string) {
            string text = (string)o.Vals[1];
            Broke(name, "it raised " + o.Vals[0] + (text.Length == 0 ? "" : ": " + text));
        }
        Broke(name, "its answer is not a value of the wire");
        return null; // not reached
    }

    static void Main(string[] args) {
        try {
            input = new VerdictWire.Lines(new FileStream("/dev/fd/3", FileMode.Open, FileAccess.Read));
            output = new FileStream("/dev/fd/4", FileMode.Open, FileAccess.Write);
        } catch (Exception e) {
            Console.Error.WriteLine("verdict grader: no channel: " + e.Message);
            Environment.Exit(3);
        }
        Trace.Listeners.Clear();
        Trace.Listeners.Add(new VerdictAssertFailed());
        int status = 0;
        try {
            global::VerdictTests.Run(args); // the layout's: the tests' class's Main
        } catch (Exception e) {
            Console.Out.Flush();
            Console.Error.WriteLine(e + "\nverdict grader: a check failed");
            status = 1;
        }
        Console.Out.Flush();
        Console.Error.Flush();
        Environment.Exit(status);
    }
}
}
