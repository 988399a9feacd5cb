package verdicthost

// The program's side of the grader's channel (runners/job.h: calls read on fd 3, answers
// written on fd 4): the file verdict_host_test.go beside the program, in its package (the
// compile names it so), with wire.go after it. It holds no test and decides nothing: its
// TestMain serves the entry point the join names (verdictServed), and the program's own tests,
// if it has any, never run. For each {"call":NAME,"args":[...]} it decodes the arguments into
// the function's parameter types, calls it, and answers {"ok":V} with its results (a tuple of
// them when there are several), or {"raise":"panic","message":TEXT} when the call panicked.

import (
	vbufio "bufio"
	vjson "encoding/json"
	vfmt "fmt"
	vio "io"
	vmath "math"
	vos "os"
	vreflect "reflect"
	vstrconv "strconv"
	vstrings "strings"
	vtesting "testing"
	vunsafe "unsafe"
)

func TestMain(m *vtesting.M) {
	name, fn := verdictServed()
	verdictServe(name, vreflect.ValueOf(fn))
	vos.Exit(0)
}

func verdictRaised(t string, m string) []byte {
	if len(m) > 2000 {
		m = m[:2000]
	}
	b := verdictQuote([]byte(`{"raise":`), t)
	b = append(b, `,"message":`...)
	b = verdictQuote(b, m)
	return append(b, "}\n"...)
}

// verdictAnswer answers one call line.
func verdictAnswer(name string, fn vreflect.Value, line []byte) (answer []byte) {
	v, err := verdictParse(line)
	o, _ := v.(map[string]interface{})
	args, isList := o["args"].([]interface{})
	ft := fn.Type()
	if err != nil || o["call"] != name || len(o) != 2 || !isList || len(args) != ft.NumIn() {
		return verdictRaised("ValueError", "the grader's call could not be decoded")
	}
	in := make([]vreflect.Value, len(args))
	for i, a := range args {
		if in[i], err = verdictDecode(a, ft.In(i), 0); err != nil {
			return verdictRaised("ValueError", "the grader's call could not be decoded: "+
				err.Error())
		}
	}
	defer func() {
		if r := recover(); r != nil {
			answer = verdictRaised("panic", vfmt.Sprint(r))
		}
	}()
	var out []vreflect.Value
	if ft.IsVariadic() {
		out = fn.CallSlice(in)
	} else {
		out = fn.Call(in)
	}
	b := []byte(`{"ok":`)
	switch len(out) {
	case 0:
		b = append(b, "null"...)
	case 1:
		b, err = verdictEncode(b, out[0], 0)
	default:
		b = append(b, `{"tuple":[`...)
		for i := 0; err == nil && i < len(out); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b, err = verdictEncode(b, out[i], 1)
		}
		b = append(b, "]}"...)
	}
	if err != nil {
		return verdictRaised("TypeError", err.Error())
	}
	return append(b, "}\n"...)
}

// verdictServe answers the grader's calls of fn, named name, until it closes the channel.
func verdictServe(name string, fn vreflect.Value) {
	calls := vbufio.NewReaderSize(vos.NewFile(3, "verdict-calls"), 1<<16)
	answers := vos.NewFile(4, "verdict-answers")
	for {
		line, err := verdictReadLine(calls)
		if err != nil {
			return
		}
		if _, err := answers.Write(verdictAnswer(name, fn, line)); err != nil {
			vos.Exit(1)
		}
	}
}
