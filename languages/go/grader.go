// The grader's side of the channel (runners/job.h: it writes calls on fd 4 and reads answers
// on fd 3), compiled with the tests into a test binary of its own (languages/README.md, "A
// compiled grader"; its imports merged with the tests' by server/judge/goimports). The entry
// point the tests call is a proxy with the prompt's own declaration, whose body is
// verdictCall: each call is sent as {"call":NAME,"args":[...]} and its answer decoded by
// wire.go into the declared result types, so the tests compare values of their own types,
// never an object of the program's making. Exit status (languages/wire.md): 0 when the tests
// ran to their end and passed, 1 when one failed (the testing package's own status), 2 at
// once when the program broke a call (raised, exited, closed its channel, answered out of
// protocol). A panic in the tests' own code ends the binary with status 2 too: not a pass.

import (
	vbufio "bufio"
	vjson "encoding/json"
	vio "io"
	vmath "math"
	vos "os"
	vreflect "reflect"
	vstrconv "strconv"
	vstrings "strings"
	vsync "sync"
	vunsafe "unsafe"
)

var verdictLock vsync.Mutex
var verdictAnswers = vbufio.NewReaderSize(vos.NewFile(3, "verdict-answers"), 1<<16)
var verdictCalls = vos.NewFile(4, "verdict-calls")

func verdictBroke(name, why, detail string) {
	if len(detail) > 2000 {
		detail = detail[:2000]
	}
	if detail != "" {
		detail = ": " + detail
	}
	vos.Stderr.WriteString("verdict grader: the program broke the call of " + name + ": " + why +
		detail + "\n")
	vos.Exit(2)
}

// verdictCall sends one call and returns a function that returns its answer as F's results
// (the proxy calls it at once: `return verdictCall[func() T]("f", a, b)()`).
func verdictCall[F any](name string, args ...interface{}) F {
	verdictLock.Lock()
	defer verdictLock.Unlock()
	var f F
	ft := vreflect.TypeOf(&f).Elem()
	if verdictAnswers.Buffered() > 0 {
		verdictBroke(name, "it wrote on its channel between calls", "")
	}
	msg := verdictQuote([]byte(`{"call":`), name)
	msg = append(msg, `,"args":[`...)
	for i, a := range args {
		if i > 0 {
			msg = append(msg, ',')
		}
		var err error
		if msg, err = verdictEncode(msg, vreflect.ValueOf(a), 0); err != nil {
			panic("verdict grader: an argument of the tests' cannot cross: " + err.Error())
		}
	}
	msg = append(msg, "]}\n"...)
	if _, err := verdictCalls.Write(msg); err != nil {
		verdictBroke(name, "it exited or closed its channel before answering", "")
	}
	line, err := verdictReadLine(verdictAnswers)
	if err != nil {
		verdictBroke(name, "it exited or closed its channel before answering", err.Error())
	}
	v, err := verdictParse(line)
	o, isObject := v.(map[string]interface{})
	if err != nil || !isObject {
		verdictBroke(name, "its answer is not a value of the wire", "")
	}
	if ok, has := o["ok"]; has && len(o) == 1 {
		results := make([]vreflect.Value, ft.NumOut())
		switch {
		case len(results) == 0 && ok != nil:
			verdictBroke(name, "a function of no result answered a value", "")
		case len(results) == 1:
			results[0], err = verdictDecode(ok, ft.Out(0), 0)
		case len(results) > 1:
			tag, l, tagged := verdictTagged(ok)
			items, isList := l.([]interface{})
			if !tagged || tag != "tuple" || !isList || len(items) != len(results) {
				err = verdictError("not a tuple of the declared results")
			}
			for i := 0; err == nil && i < len(results); i++ {
				results[i], err = verdictDecode(items[i], ft.Out(i), 0)
			}
		}
		if err != nil {
			verdictBroke(name, "its answer is not a value of the declared result type",
				err.Error())
		}
		return vreflect.MakeFunc(ft, func([]vreflect.Value) []vreflect.Value {
			return results
		}).Interface().(F)
	}
	t, tok := o["raise"].(string)
	m, mok := o["message"].(string)
	if len(o) != 2 || !tok || !mok {
		verdictBroke(name, "its answer is not a value of the wire", "")
	}
	if m != "" {
		t += ": " + m
	}
	verdictBroke(name, "it raised", t)
	return f
}
