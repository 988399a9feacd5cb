// The program's side of the grader's channel (runners/job.h: calls read on fd 3, answers
// written on fd 4), in VerdictHost.cs beside the program's source, started by the VerdictMain
// class the template's join adds after the program's code. It holds no test and decides
// nothing: for each {"call":NAME,"args":[...]} it decodes the arguments into the parameter
// types of the prompt's declaration (VerdictSig, beside VerdictMain), passes them to the method
// NAME of the class that declares the entry point as the tests' call would (an implicit
// conversion where its parameter's type differs), calls it, and answers {"ok":V} with the result as its runtime type encodes, or
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

    static MethodInfo Find(Type c, string name, int n, MethodInfo like) {
        MethodInfo first = null;
        foreach (MethodInfo m in c.GetMethods(Any)) {
            if (m.Name != name || m.GetParameters().Length != n || m.IsGenericMethodDefinition) continue;
            if (like == null || Same(m.GetParameters(), like.GetParameters())) return m;
            first = first ?? m;
        }
        if (first == null)
            throw new VerdictWire.Bad(c.FullName + " has no method " + name + " of " + n + " parameters");
        return first;
    }

    static bool Same(ParameterInfo[] a, ParameterInfo[] b) {
        for (int i = 0; i < a.Length; i++)
            if (a[i].ParameterType != b[i].ParameterType) return false;
        return true;
    }

    static readonly Type[] Widening = {typeof(sbyte), typeof(byte), typeof(short), typeof(ushort), typeof(int),
                                       typeof(uint), typeof(long), typeof(ulong), typeof(float), typeof(double)};

    /// <summary>v, decoded as the prompt declares it, passed to a parameter of type to the way
    /// the tests' call would pass it: as is, by an implicit operator (long to Complex), or by a
    /// widening numeric conversion (long to double); anything else does not convert.</summary>
    static object Fit(object v, Type to) {
        Type u = Nullable.GetUnderlyingType(to) ?? to;
        if (v == null || u.IsInstanceOfType(v)) return v;
        int from = Array.IndexOf(Widening, v.GetType()), into = Array.IndexOf(Widening, u);
        if (from >= 0 && into > from &&
            !(u == typeof(ulong) || u == typeof(uint) || u == typeof(ushort) || u == typeof(byte)))
            return System.Convert.ChangeType(v, u, System.Globalization.CultureInfo.InvariantCulture);
        foreach (Type t in new[] {u, v.GetType()})
            foreach (MethodInfo op in t.GetMethods(BindingFlags.Public | BindingFlags.Static))
                if (op.Name == "op_Implicit" && op.ReturnType == u &&
                    op.GetParameters()[0].ParameterType.IsInstanceOfType(v))
                    return op.Invoke(null, new[] {v});
        throw new VerdictWire.Bad("a " + v.GetType().Name + " does not convert to " + to.Name);
    }

    static string Answer(Type c, Type sig, ref object self, string line) {
        var o = VerdictWire.Parse(line) as VerdictWire.Obj;
        if (o == null || o.Keys.Count != 2 || o.Keys[0] != "call" || o.Keys[1] != "args" ||
            !(o.Vals[0] is string) || !(o.Vals[1] is List<object>))
            throw new VerdictWire.Bad("not a call");
        var wargs = (List<object>)o.Vals[1];
        string name = (string)o.Vals[0];
        // the arguments as the prompt declares them (VerdictSig), then as the program's method takes them
        MethodInfo declared = Find(sig, name, wargs.Count, null);
        MethodInfo m = Find(c, name, wargs.Count, declared);
        ParameterInfo[] want = declared.GetParameters(), ps = m.GetParameters();
        var args = new object[ps.Length];
        for (int i = 0; i < args.Length; i++)
            args[i] = Fit(VerdictWire.Decode(wargs[i], want[i].ParameterType), ps[i].ParameterType);
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

    /// <summary>Serves c's methods until the grader closes the channel; sig declares them as
    /// the tests call them (the prompt's declaration).</summary>
    public static void Serve(Type c, Type sig) {
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
                reply = Answer(c, sig, ref self, line);
            } catch (Exception e) {
                reply = Raised(e);
            }
            Console.Out.Flush();
            VerdictWire.Write(output, reply);
        }
    }
}
}
