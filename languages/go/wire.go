// The typed wire (languages/wire.md) in Go, for the grader (grader.go) and the host (host.go),
// each of which declares the packages this file uses under these names: vbufio, vjson, vmath,
// vreflect, vstrconv, vstrings, vunsafe, vio. Values are encoded and decoded by reflection on
// the declared types: the grader decodes an answer into the tests' own type, the host the
// arguments into the parameters' types; neither calls a method of a value it encodes
// (String, Error, MarshalJSON never run), so no value of the program's making reaches a check.
// Encoding: bool; integers of every width; floats (always with a '.' or an exponent; NaN and
// the infinities tagged); strings; slices and arrays as lists (a nil slice as null); maps as
// {"map":[[K,V],...]} (a nil map as null); structs as {"tuple":[fields...]}; pointers and
// interfaces as what they point to (nil: null). Channels, functions and complex numbers do not
// cross. A value held by an interface{} crosses with its dynamic type when that type is built
// of Go's predeclared types only (`{"go":["[]string",[...]]}`: languages/wire.md, Go's
// extension), so that the tests' type switches and reflect.DeepEqual see the type the other
// side had (a rune stays a rune, a []string never becomes a []interface{}); any other (a
// named type of the program's) arrives as Go's plain kinds: int, float64, string, bool, rune
// (a char), []interface{} (a list or a tuple), map[interface{}]interface{}.

const verdictMaxLine = 64 << 20 // bytes a line may hold
const verdictMaxDepth = 100     // nesting a value may reach

type verdictError string

func (e verdictError) Error() string { return string(e) }

// verdictReadLine reads one line (less its newline) of at most verdictMaxLine bytes.
func verdictReadLine(r *vbufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > verdictMaxLine+1 {
			return nil, verdictError("a line longer than 64 MiB")
		}
		line = append(line, chunk...)
		if err == nil {
			return line[:len(line)-1], nil
		}
		if err != vbufio.ErrBufferFull {
			if err == vio.EOF && len(line) > 0 {
				err = vio.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
}

// verdictParse reads one JSON text, the whole of line, with numbers kept as their text.
func verdictParse(line []byte) (interface{}, error) {
	d := vjson.NewDecoder(vstrings.NewReader(string(line)))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	var tail interface{}
	if d.Decode(&tail) != vio.EOF {
		return nil, verdictError("bytes after the value")
	}
	return v, nil
}

func verdictQuote(b []byte, s string) []byte {
	q, _ := vjson.Marshal(s)
	return append(b, q...)
}

// verdictEncode appends v's encoding to b.
func verdictEncode(b []byte, v vreflect.Value, depth int) ([]byte, error) {
	if depth > verdictMaxDepth {
		return b, verdictError("a value nested deeper than 100 levels")
	}
	switch v.Kind() {
	case vreflect.Invalid:
		return append(b, "null"...), nil
	case vreflect.Interface, vreflect.Ptr:
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		if v.Kind() == vreflect.Interface {
			if name := verdictTypeName(v.Elem().Type(), 0); name != "" {
				b = verdictQuote(append(b, `{"go":[`...), name)
				b, err := verdictEncode(append(b, ','), v.Elem(), depth+1)
				return append(b, "]}"...), err
			}
		}
		return verdictEncode(b, v.Elem(), depth+1)
	case vreflect.Bool:
		if v.Bool() {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case vreflect.Int, vreflect.Int8, vreflect.Int16, vreflect.Int32, vreflect.Int64:
		return vstrconv.AppendInt(b, v.Int(), 10), nil
	case vreflect.Uint, vreflect.Uint8, vreflect.Uint16, vreflect.Uint32, vreflect.Uint64,
		vreflect.Uintptr:
		return vstrconv.AppendUint(b, v.Uint(), 10), nil
	case vreflect.Float32, vreflect.Float64:
		f := v.Float()
		switch {
		case vmath.IsNaN(f):
			return append(b, `{"float":"nan"}`...), nil
		case vmath.IsInf(f, 1):
			return append(b, `{"float":"inf"}`...), nil
		case vmath.IsInf(f, -1):
			return append(b, `{"float":"-inf"}`...), nil
		}
		s := vstrconv.FormatFloat(f, 'g', -1, v.Type().Bits())
		if !vstrings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return append(b, s...), nil
	case vreflect.String:
		return verdictQuote(b, v.String()), nil
	case vreflect.Slice, vreflect.Array:
		if v.Kind() == vreflect.Slice && v.IsNil() {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = verdictEncode(b, v.Index(i), depth+1); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case vreflect.Map:
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		b = append(b, `{"map":[`...)
		for i, it := 0, v.MapRange(); it.Next(); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			b = append(b, '[')
			if b, err = verdictEncode(b, it.Key(), depth+2); err != nil {
				return b, err
			}
			b = append(b, ',')
			if b, err = verdictEncode(b, it.Value(), depth+2); err != nil {
				return b, err
			}
			b = append(b, ']')
		}
		return append(b, "]}"...), nil
	case vreflect.Struct:
		b = append(b, `{"tuple":[`...)
		for i := 0; i < v.NumField(); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = verdictEncode(b, v.Field(i), depth+1); err != nil {
				return b, err
			}
		}
		return append(b, "]}"...), nil
	}
	return b, verdictError("a value of kind " + v.Kind().String() + " does not cross the wire")
}

// verdictTypeName: t as Go writes it when t is built of predeclared types only (bool, string,
// the numeric kinds, interface{}) with [], [N], map[K]V and *; else "".
func verdictTypeName(t vreflect.Type, depth int) string {
	if depth > 20 {
		return ""
	}
	switch t.Kind() {
	case vreflect.Slice, vreflect.Array, vreflect.Ptr:
		e := verdictTypeName(t.Elem(), depth+1)
		if e == "" || t.Name() != "" {
			return ""
		}
		if t.Kind() == vreflect.Slice {
			return "[]" + e
		} else if t.Kind() == vreflect.Ptr {
			return "*" + e
		}
		return "[" + vstrconv.Itoa(t.Len()) + "]" + e
	case vreflect.Map:
		k, e := verdictTypeName(t.Key(), depth+1), verdictTypeName(t.Elem(), depth+1)
		if k == "" || e == "" || t.Name() != "" {
			return ""
		}
		return "map[" + k + "]" + e
	case vreflect.Interface:
		if t.NumMethod() == 0 && t.Name() == "" {
			return "interface {}"
		}
		return ""
	case vreflect.Complex64, vreflect.Complex128, vreflect.Chan, vreflect.Func, vreflect.Struct,
		vreflect.UnsafePointer:
		return ""
	}
	if t.PkgPath() != "" || verdictBaseTypes[t.Name()] == nil {
		return "" // a named type of a package (type myint int)
	}
	return t.Name()
}

var verdictBaseTypes = map[string]vreflect.Type{
	"bool": vreflect.TypeOf(false), "string": vreflect.TypeOf(""),
	"int": vreflect.TypeOf(int(0)), "int8": vreflect.TypeOf(int8(0)),
	"int16": vreflect.TypeOf(int16(0)), "int32": vreflect.TypeOf(int32(0)),
	"int64": vreflect.TypeOf(int64(0)), "uint": vreflect.TypeOf(uint(0)),
	"uint8": vreflect.TypeOf(uint8(0)), "uint16": vreflect.TypeOf(uint16(0)),
	"uint32": vreflect.TypeOf(uint32(0)), "uint64": vreflect.TypeOf(uint64(0)),
	"uintptr": vreflect.TypeOf(uintptr(0)), "float32": vreflect.TypeOf(float32(0)),
	"float64": vreflect.TypeOf(float64(0)),
	"interface {}": vreflect.TypeOf((*interface{})(nil)).Elem(),
}

// verdictTypeOf: the type verdictTypeName wrote at the start of s, and the rest of s.
func verdictTypeOf(s string, depth int) (t vreflect.Type, rest string, err error) {
	bad := verdictError("not a type of the wire: " + s)
	defer func() { // a type reflect cannot build (an array past the address space)
		if recover() != nil {
			t, err = nil, bad
		}
	}()
	if depth > verdictMaxDepth {
		return nil, s, bad
	}
	switch {
	case vstrings.HasPrefix(s, "[]"), vstrings.HasPrefix(s, "*"):
		e, rest, err := verdictTypeOf(vstrings.TrimPrefix(vstrings.TrimPrefix(s, "[]"), "*"),
			depth+1)
		if err != nil {
			return nil, rest, err
		} else if s[0] == '*' {
			return vreflect.PtrTo(e), rest, nil
		}
		return vreflect.SliceOf(e), rest, nil
	case vstrings.HasPrefix(s, "["):
		i := vstrings.IndexByte(s, ']')
		if i < 1 {
			return nil, s, bad
		}
		n, err := vstrconv.Atoi(s[1:i])
		if err != nil || n < 0 || n > 1<<20 {
			return nil, s, bad
		}
		e, rest, err := verdictTypeOf(s[i+1:], depth+1)
		if err != nil || (n > 0 && e.Size() > (64<<20)/uintptr(n)) { // its zero value is made
			return nil, rest, bad
		}
		return vreflect.ArrayOf(n, e), rest, nil
	case vstrings.HasPrefix(s, "map["):
		k, rest, err := verdictTypeOf(s[4:], depth+1)
		if err != nil || !vstrings.HasPrefix(rest, "]") || !k.Comparable() {
			return nil, rest, bad
		}
		e, rest, err := verdictTypeOf(rest[1:], depth+1)
		if err != nil {
			return nil, rest, err
		}
		return vreflect.MapOf(k, e), rest, nil
	case vstrings.HasPrefix(s, "interface {}"):
		return verdictBaseTypes["interface {}"], s[len("interface {}"):], nil
	}
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	if t := verdictBaseTypes[s[:i]]; t != nil && i > 0 {
		return t, s[i:], nil
	}
	return nil, s, bad
}

// verdictTagged: x's tag and value when x is a tagged object of the wire ({"map":...}).
func verdictTagged(x interface{}) (string, interface{}, bool) {
	o, ok := x.(map[string]interface{})
	if !ok || len(o) != 1 {
		return "", nil, false
	}
	for k, v := range o {
		switch k {
		case "float", "char", "tuple", "map", "set", "go":
			return k, v, true
		}
	}
	return "", nil, false
}

func verdictIsInteger(n vjson.Number) bool {
	return !vstrings.ContainsAny(string(n), ".eE")
}

// verdictFloat: x as a float (a number, or a tagged nan / inf / -inf).
func verdictFloat(x interface{}, bits int) (float64, error) {
	if n, ok := x.(vjson.Number); ok {
		return vstrconv.ParseFloat(string(n), bits)
	}
	if tag, v, ok := verdictTagged(x); ok && tag == "float" {
		switch v {
		case "nan":
			return vmath.NaN(), nil
		case "inf":
			return vmath.Inf(1), nil
		case "-inf":
			return vmath.Inf(-1), nil
		}
	}
	return 0, verdictError("not a number")
}

// verdictDynamic: x as Go's plain kinds, for an interface{}.
func verdictDynamic(x interface{}, depth int) (interface{}, error) {
	if depth > verdictMaxDepth {
		return nil, verdictError("a value nested deeper than 100 levels")
	}
	switch t := x.(type) {
	case nil, bool, string:
		return t, nil
	case vjson.Number:
		if verdictIsInteger(t) {
			i, err := vstrconv.ParseInt(string(t), 10, 0)
			return int(i), err
		}
		return vstrconv.ParseFloat(string(t), 64)
	case []interface{}:
		out := make([]interface{}, len(t))
		for i, e := range t {
			var err error
			if out[i], err = verdictDynamic(e, depth+1); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	tag, v, ok := verdictTagged(x)
	switch {
	case !ok:
	case tag == "float":
		return verdictFloat(x, 64)
	case tag == "char":
		if s, ok := v.(string); ok && len([]rune(s)) == 1 {
			return []rune(s)[0], nil
		}
	case tag == "tuple":
		if l, ok := v.([]interface{}); ok {
			return verdictDynamic(l, depth+1)
		}
	case tag == "go": // [TYPE, VALUE]: a value of that type
		l, _ := v.([]interface{})
		if len(l) != 2 {
			break
		}
		name, _ := l[0].(string)
		t, rest, err := verdictTypeOf(name, 0)
		if err != nil || rest != "" {
			return nil, verdictError("not a type of the wire: " + name)
		}
		val, err := verdictDecode(l[1], t, depth+1)
		if err != nil {
			return nil, err
		}
		return val.Interface(), nil
	case tag == "map":
		l, ok := v.([]interface{})
		if !ok {
			break
		}
		out := make(map[interface{}]interface{}, len(l))
		for _, e := range l {
			kv, ok := e.([]interface{})
			if !ok || len(kv) != 2 {
				return nil, verdictError("a map entry that is not a pair")
			}
			k, err := verdictDynamic(kv[0], depth+2)
			if err != nil {
				return nil, err
			}
			if k != nil && !vreflect.TypeOf(k).Comparable() {
				return nil, verdictError("a map key that Go cannot hash")
			}
			if out[k], err = verdictDynamic(kv[1], depth+2); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, verdictError("not a value of the wire")
}

// verdictDecode: x as a value of type t.
func verdictDecode(x interface{}, t vreflect.Type, depth int) (vreflect.Value, error) {
	out := vreflect.New(t).Elem()
	bad := verdictError("not a value of type " + t.String())
	if depth > verdictMaxDepth {
		return out, verdictError("a value nested deeper than 100 levels")
	}
	if x == nil {
		switch t.Kind() {
		case vreflect.Interface, vreflect.Ptr, vreflect.Slice, vreflect.Map:
			return out, nil
		}
		return out, bad
	}
	switch t.Kind() {
	case vreflect.Interface:
		if t.NumMethod() != 0 {
			return out, bad
		}
		d, err := verdictDynamic(x, depth)
		if err == nil && d != nil {
			out.Set(vreflect.ValueOf(d))
		}
		return out, err
	case vreflect.Ptr:
		e, err := verdictDecode(x, t.Elem(), depth+1)
		if err != nil {
			return out, err
		}
		p := vreflect.New(t.Elem())
		p.Elem().Set(e)
		return p, nil
	case vreflect.Bool:
		b, ok := x.(bool)
		if !ok {
			return out, bad
		}
		out.SetBool(b)
		return out, nil
	case vreflect.Int, vreflect.Int8, vreflect.Int16, vreflect.Int32, vreflect.Int64:
		n, ok := x.(vjson.Number)
		if !ok || !verdictIsInteger(n) {
			return out, bad
		}
		i, err := vstrconv.ParseInt(string(n), 10, t.Bits())
		out.SetInt(i)
		return out, err
	case vreflect.Uint, vreflect.Uint8, vreflect.Uint16, vreflect.Uint32, vreflect.Uint64,
		vreflect.Uintptr:
		n, ok := x.(vjson.Number)
		if !ok || !verdictIsInteger(n) {
			return out, bad
		}
		u, err := vstrconv.ParseUint(string(n), 10, t.Bits())
		out.SetUint(u)
		return out, err
	case vreflect.Float32, vreflect.Float64:
		f, err := verdictFloat(x, t.Bits())
		out.SetFloat(f)
		return out, err
	case vreflect.String:
		s, ok := x.(string)
		if !ok {
			return out, bad
		}
		out.SetString(s)
		return out, nil
	case vreflect.Slice, vreflect.Array:
		l, ok := x.([]interface{})
		if !ok || (t.Kind() == vreflect.Array && len(l) != t.Len()) {
			return out, bad
		}
		if t.Kind() == vreflect.Slice {
			out = vreflect.MakeSlice(t, len(l), len(l))
		}
		for i, e := range l {
			v, err := verdictDecode(e, t.Elem(), depth+1)
			if err != nil {
				return out, err
			}
			out.Index(i).Set(v)
		}
		return out, nil
	case vreflect.Map:
		tag, v, ok := verdictTagged(x)
		l, isList := v.([]interface{})
		if !ok || tag != "map" || !isList {
			return out, bad
		}
		out = vreflect.MakeMapWithSize(t, len(l))
		for _, e := range l {
			kv, ok := e.([]interface{})
			if !ok || len(kv) != 2 {
				return out, bad
			}
			k, err := verdictDecode(kv[0], t.Key(), depth+2)
			if err != nil {
				return out, err
			}
			if k.Kind() == vreflect.Interface && !k.IsNil() && !k.Elem().Type().Comparable() {
				return out, verdictError("a map key that Go cannot hash")
			}
			val, err := verdictDecode(kv[1], t.Elem(), depth+2)
			if err != nil {
				return out, err
			}
			out.SetMapIndex(k, val)
		}
		return out, nil
	case vreflect.Struct:
		tag, v, ok := verdictTagged(x)
		l, isList := v.([]interface{})
		if !ok || tag != "tuple" || !isList || len(l) != t.NumField() {
			return out, bad
		}
		for i, e := range l {
			f, err := verdictDecode(e, t.Field(i).Type, depth+1)
			if err != nil {
				return out, err
			}
			field := out.Field(i) // unexported fields too: this value is ours
			vreflect.NewAt(field.Type(), vunsafe.Pointer(field.UnsafeAddr())).Elem().Set(f)
		}
		return out, nil
	}
	return out, verdictError("a value of type " + t.String() + " does not cross the wire")
}
