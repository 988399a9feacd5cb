// The program's side of the grader's channel (runners/job.h: calls read on fd 3, answers
// written on fd 4), in VerdictHost.cs beside the program's source, started by the VerdictMain
// class the template's join adds after the program's code. It holds no test and decides
// nothing: for each {"call":NAME,"args":[...]} it finds the method NAME of the class that
// declares the entry point, decodes the arguments into its declared parameter types
// (VerdictWire), calls it, and answers {"ok":V} with the result as its runtime type encodes, or
// {"raise":TYPE,"message":TEXT} when the call threw; the grader trusts nothing it says beyond
// the values it carries (languages/wire.md).
namespace VerdictRuntime {
using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Text;

static class VerdictHost {
    const BindingFlags Any = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static |
                             BindingFlags.Instance | BindingFlags.DeclaredOnly;

    static string Raised(Exception e) {
        var o = new StringBuilder("{\"raise\":");
        string text = e.Message ?? "";
        VerdictWire.PutString(o, e.GetType().FullName);
        o.Append(",\"message\":");
        VerdictWire.PutString(o, text.Length > 2000 ? text.Substring(0, 2000) : text);
        return o.Append('}').ToString();
    }

    static MethodInfo Find(Type c, string name, int n) {
        foreach (MethodInfo m in c.GetMethods(Any))
            if (m.Name == name && m.GetParameters().Length == n && !m.IsGenericMethodDefinition) return m;
        throw new VerdictWire.Bad(c.FullName + " has no method " + name + " of " + n + " parameters");
    }

    static string Answer(Type c, ref object self, string line) {
        var o = VerdictWire.Parse(line) as VerdictWire.Obj;
        if (o == null || o.Keys.Count != 2 || o.Keys[0] != "call" || o.Keys[1] != "args" ||
            !(o.Vals[0] is string) || !(o.Vals[1] is List<object>))
            throw new VerdictWire.Bad("not a call");
        var wargs = (List<object>)o.Vals[1];
        MethodInfo m = Find(c, (string)o.Vals[0], wargs.Count);
        ParameterInfo[] ps = m.GetParameters();
        var args = new object[ps.Length];
        for (int i = 0; i < args.Length; i++) args[i] = VerdictWire.Decode(wargs[i], ps[i].ParameterType);
        if (!m.IsStatic && self == null) self = Activator.CreateInstance(c, true);
        object r;
        try {
            r = m.Invoke(m.IsStatic ? null : self, args);
        } catch (TargetInvocationException e) {
            return Raised(e.InnerException ?? e);
        }
        var out_ = new StringBuilder("{\"ok\":");
        if (m.ReturnType == typeof(void)) out_.Append("null");
        else VerdictWire.Encode(out_, r);
        return out_.Append('}').ToString();
    }

    /// <summary>Serves c's methods until the grader closes the channel.</summary>
    public static void Serve(Type c) {
        var input = new VerdictWire.Lines(new FileStream("/dev/fd/3", FileMode.Open, FileAccess.Read));
        Stream output = new FileStream("/dev/fd/4", FileMode.Open, FileAccess.Write);
        object self = null;
        for (;;) {
            string line;
            try {
                line = input.Next();
            } catch (VerdictWire.Bad) {
                return; // not our grader
            }
            if (line == null) return;
            string reply;
            try {
                reply = Answer(c, ref self, line);
            } catch (Exception e) {
                reply = Raised(e);
            }
            Console.Out.Flush();
            VerdictWire.Write(output, reply);
        }
    }
}
}
