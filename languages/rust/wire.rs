// The typed wire (languages/wire.md) in Rust: a strict parser of one JSON text into a plain
// tree, and two traits between that tree and the standard types a prompt's declaration uses:
// Put (encode: bool, char, the integer and float types, String and str, Vec, slices, arrays,
// VecDeque, Option, tuples up to 8, HashMap, BTreeMap, HashSet, BTreeSet, references and
// Box of those) and Take (decode into the owned ones, and `&'static str`). A type with neither
// fails to compile, never at run time. The grader and the host both include this module; every path in it is
// written from the crate root (`::std::...`), so that nothing of the prompt's or the
// program's (a `struct String` of its own) changes what it means. Nothing it reads is called
// or evaluated.
#[allow(dead_code)]
pub mod verdict_wire {
    pub const MAX_DEPTH: usize = 100;
    pub const MAX_LINE: usize = 64 << 20;

    /// A parsed value: exactly the JSON kinds; numbers keep their text.
    #[derive(Debug, Clone, PartialEq)]
    pub enum Value {
        Null,
        Bool(bool),
        Num(::std::string::String),
        Str(::std::string::String),
        List(::std::vec::Vec<Value>),
        Obj(::std::vec::Vec<(::std::string::String, Value)>),
    }

    type Res<T> = ::std::result::Result<T, ::std::string::String>;

    fn bad<T>(why: &str) -> Res<T> {
        ::std::result::Result::Err(::std::string::String::from(why))
    }

    impl Value {
        /// The single field of an object of the form {"tag": V}.
        pub fn tagged(&self, tag: &str) -> ::std::option::Option<&Value> {
            match self {
                Value::Obj(f) if f.len() == 1 && f[0].0 == tag => ::std::option::Option::Some(&f[0].1),
                _ => ::std::option::Option::None,
            }
        }
        pub fn field(&self, name: &str) -> ::std::option::Option<&Value> {
            match self {
                Value::Obj(f) => f.iter().find(|(k, _)| k == name).map(|(_, v)| v),
                _ => ::std::option::Option::None,
            }
        }
    }

    // ---- parsing ----

    struct Parser<'a> {
        s: &'a [u8],
        at: usize,
    }

    impl<'a> Parser<'a> {
        fn ws(&mut self) {
            while self.at < self.s.len() && matches!(self.s[self.at], b' ' | b'\t' | b'\r' | b'\n') {
                self.at += 1;
            }
        }

        fn lit(&mut self, word: &str, v: Value) -> Res<Value> {
            if self.s[self.at..].starts_with(word.as_bytes()) {
                self.at += word.len();
                ::std::result::Result::Ok(v)
            } else {
                bad("not a JSON value")
            }
        }

        fn value(&mut self, depth: usize) -> Res<Value> {
            if depth > MAX_DEPTH {
                return bad("nested too deeply");
            }
            self.ws();
            if self.at >= self.s.len() {
                return bad("the text ended early");
            }
            match self.s[self.at] {
                b'n' => self.lit("null", Value::Null),
                b't' => self.lit("true", Value::Bool(true)),
                b'f' => self.lit("false", Value::Bool(false)),
                b'"' => self.string().map(Value::Str),
                b'[' => {
                    self.at += 1;
                    let mut items = ::std::vec::Vec::new();
                    self.ws();
                    if self.at < self.s.len() && self.s[self.at] == b']' {
                        self.at += 1;
                        return ::std::result::Result::Ok(Value::List(items));
                    }
                    loop {
                        items.push(self.value(depth + 1)?);
                        self.ws();
                        match self.s.get(self.at) {
                            ::std::option::Option::Some(b',') => self.at += 1,
                            ::std::option::Option::Some(b']') => {
                                self.at += 1;
                                return ::std::result::Result::Ok(Value::List(items));
                            }
                            _ => return bad("a list not closed"),
                        }
                    }
                }
                b'{' => {
                    self.at += 1;
                    let mut fields = ::std::vec::Vec::new();
                    self.ws();
                    if self.at < self.s.len() && self.s[self.at] == b'}' {
                        self.at += 1;
                        return ::std::result::Result::Ok(Value::Obj(fields));
                    }
                    loop {
                        self.ws();
                        if self.s.get(self.at) != ::std::option::Option::Some(&b'"') {
                            return bad("an object's key is no string");
                        }
                        let k = self.string()?;
                        self.ws();
                        if self.s.get(self.at) != ::std::option::Option::Some(&b':') {
                            return bad("an object's key without a value");
                        }
                        self.at += 1;
                        let v = self.value(depth + 1)?;
                        fields.push((k, v));
                        self.ws();
                        match self.s.get(self.at) {
                            ::std::option::Option::Some(b',') => self.at += 1,
                            ::std::option::Option::Some(b'}') => {
                                self.at += 1;
                                return ::std::result::Result::Ok(Value::Obj(fields));
                            }
                            _ => return bad("an object not closed"),
                        }
                    }
                }
                b'-' | b'0'..=b'9' => self.number(),
                _ => bad("not a JSON value"),
            }
        }

        fn number(&mut self) -> Res<Value> {
            let start = self.at;
            let digits = |p: &mut Parser| {
                let d = p.at;
                while p.at < p.s.len() && p.s[p.at].is_ascii_digit() {
                    p.at += 1;
                }
                p.at > d
            };
            if self.s[self.at] == b'-' {
                self.at += 1;
            }
            let int_start = self.at;
            if !digits(self) || (self.s[int_start] == b'0' && self.at - int_start > 1) {
                return bad("a malformed number");
            }
            if self.s.get(self.at) == ::std::option::Option::Some(&b'.') {
                self.at += 1;
                if !digits(self) {
                    return bad("a malformed number");
                }
            }
            if matches!(self.s.get(self.at), ::std::option::Option::Some(b'e' | b'E')) {
                self.at += 1;
                if matches!(self.s.get(self.at), ::std::option::Option::Some(b'+' | b'-')) {
                    self.at += 1;
                }
                if !digits(self) {
                    return bad("a malformed number");
                }
            }
            let text = ::std::str::from_utf8(&self.s[start..self.at]).map_err(|_| "not UTF-8")?;
            ::std::result::Result::Ok(Value::Num(::std::string::String::from(text)))
        }

        fn hex4(&mut self) -> Res<u32> {
            let h = self.s.get(self.at..self.at + 4).ok_or("an escape cut short")?;
            let t = ::std::str::from_utf8(h).map_err(|_| "a bad escape")?;
            if !t.bytes().all(|b| b.is_ascii_hexdigit()) {
                return bad("a bad escape");
            }
            self.at += 4;
            u32::from_str_radix(t, 16).map_err(|_| ::std::string::String::from("a bad escape"))
        }

        fn string(&mut self) -> Res<::std::string::String> {
            self.at += 1; /* the opening quote */
            let mut out: ::std::vec::Vec<u8> = ::std::vec::Vec::new();
            loop {
                let c = *self.s.get(self.at).ok_or("a string not closed")?;
                self.at += 1;
                match c {
                    b'"' => break,
                    b'\\' => {
                        let e = *self.s.get(self.at).ok_or("a string not closed")?;
                        self.at += 1;
                        let ch = match e {
                            b'"' => '"',
                            b'\\' => '\\',
                            b'/' => '/',
                            b'b' => '\u{8}',
                            b'f' => '\u{c}',
                            b'n' => '\n',
                            b'r' => '\r',
                            b't' => '\t',
                            b'u' => {
                                let mut u = self.hex4()?;
                                if (0xD800..0xDC00).contains(&u) {
                                    if !self.s[self.at..].starts_with(b"\\u") {
                                        return bad("a lone surrogate");
                                    }
                                    self.at += 2;
                                    let lo = self.hex4()?;
                                    if !(0xDC00..0xE000).contains(&lo) {
                                        return bad("a lone surrogate");
                                    }
                                    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                                }
                                ::std::char::from_u32(u).ok_or("a lone surrogate")?
                            }
                            _ => return bad("a bad escape"),
                        };
                        let mut b = [0u8; 4];
                        out.extend_from_slice(ch.encode_utf8(&mut b).as_bytes());
                    }
                    0..=0x1f => return bad("a control character in a string"),
                    _ => out.push(c),
                }
            }
            ::std::string::String::from_utf8(out).map_err(|_| ::std::string::String::from("not UTF-8"))
        }
    }

    /// One JSON text, whole (whitespace around it only).
    pub fn parse(text: &str) -> Res<Value> {
        let mut p = Parser { s: text.as_bytes(), at: 0 };
        let v = p.value(0)?;
        p.ws();
        if p.at != p.s.len() {
            return bad("bytes after the value");
        }
        ::std::result::Result::Ok(v)
    }

    // ---- encoding ----

    pub fn put_str(out: &mut ::std::string::String, s: &str) {
        out.push('"');
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                    out.push_str(&::std::format!("\\u{:04x}", c as u32))
                }
                c => out.push(c),
            }
        }
        out.push('"');
    }

    /// A value the tests or the program can send.
    pub trait Put {
        fn put(&self, out: &mut ::std::string::String);
    }

    impl<T: Put + ?Sized> Put for &T {
        fn put(&self, out: &mut ::std::string::String) {
            (**self).put(out)
        }
    }
    impl<T: Put + ?Sized> Put for &mut T {
        fn put(&self, out: &mut ::std::string::String) {
            (**self).put(out)
        }
    }
    impl<T: Put + ?Sized> Put for ::std::boxed::Box<T> {
        fn put(&self, out: &mut ::std::string::String) {
            (**self).put(out)
        }
    }
    impl Put for () {
        fn put(&self, out: &mut ::std::string::String) {
            out.push_str("null")
        }
    }
    impl Put for bool {
        fn put(&self, out: &mut ::std::string::String) {
            out.push_str(if *self { "true" } else { "false" })
        }
    }
    macro_rules! put_int {
        ($($t:ty),*) => {$(
            impl Put for $t {
                fn put(&self, out: &mut ::std::string::String) {
                    out.push_str(&::std::string::ToString::to_string(self))
                }
            }
        )*};
    }
    put_int!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

    fn put_float(out: &mut ::std::string::String, x: f64, text: ::std::string::String) {
        if x.is_nan() {
            out.push_str("{\"float\":\"nan\"}")
        } else if x.is_infinite() {
            out.push_str(if x > 0.0 { "{\"float\":\"inf\"}" } else { "{\"float\":\"-inf\"}" })
        } else if text.contains(['.', 'e', 'E']) {
            out.push_str(&text)
        } else {
            out.push_str(&text);
            out.push_str(".0")
        }
    }
    impl Put for f64 {
        fn put(&self, out: &mut ::std::string::String) {
            put_float(out, *self, ::std::format!("{:?}", self))
        }
    }
    impl Put for f32 {
        fn put(&self, out: &mut ::std::string::String) {
            put_float(out, *self as f64, ::std::format!("{:?}", self))
        }
    }
    impl Put for char {
        fn put(&self, out: &mut ::std::string::String) {
            out.push_str("{\"char\":");
            let mut b = [0u8; 4];
            put_str(out, self.encode_utf8(&mut b));
            out.push('}')
        }
    }
    impl Put for str {
        fn put(&self, out: &mut ::std::string::String) {
            put_str(out, self)
        }
    }
    impl Put for ::std::string::String {
        fn put(&self, out: &mut ::std::string::String) {
            put_str(out, self)
        }
    }

    fn put_seq<'a, T: Put + 'a>(out: &mut ::std::string::String, open: &str, close: &str,
                                items: impl ::std::iter::Iterator<Item = &'a T>) {
        out.push_str(open);
        for (i, x) in items.enumerate() {
            if i > 0 {
                out.push(',');
            }
            x.put(out);
        }
        out.push_str(close)
    }
    impl<T: Put> Put for [T] {
        fn put(&self, out: &mut ::std::string::String) {
            put_seq(out, "[", "]", self.iter())
        }
    }
    impl<T: Put, const N: usize> Put for [T; N] {
        fn put(&self, out: &mut ::std::string::String) {
            put_seq(out, "[", "]", self.iter())
        }
    }
    impl<T: Put> Put for ::std::vec::Vec<T> {
        fn put(&self, out: &mut ::std::string::String) {
            put_seq(out, "[", "]", self.iter())
        }
    }
    impl<T: Put> Put for ::std::collections::VecDeque<T> {
        fn put(&self, out: &mut ::std::string::String) {
            put_seq(out, "[", "]", self.iter())
        }
    }
    impl<T: Put> Put for ::std::option::Option<T> {
        fn put(&self, out: &mut ::std::string::String) {
            match self {
                ::std::option::Option::Some(x) => x.put(out),
                ::std::option::Option::None => out.push_str("null"),
            }
        }
    }
    impl<T: Put, S> Put for ::std::collections::HashSet<T, S> {
        fn put(&self, out: &mut ::std::string::String) {
            put_seq(out, "{\"set\":[", "]}", self.iter())
        }
    }
    impl<T: Put> Put for ::std::collections::BTreeSet<T> {
        fn put(&self, out: &mut ::std::string::String) {
            put_seq(out, "{\"set\":[", "]}", self.iter())
        }
    }
    fn put_map<'a, K: Put + 'a, V: Put + 'a>(out: &mut ::std::string::String,
                                              items: impl ::std::iter::Iterator<Item = (&'a K, &'a V)>) {
        out.push_str("{\"map\":[");
        for (i, (k, v)) in items.enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('[');
            k.put(out);
            out.push(',');
            v.put(out);
            out.push(']');
        }
        out.push_str("]}")
    }
    impl<K: Put, V: Put, S> Put for ::std::collections::HashMap<K, V, S> {
        fn put(&self, out: &mut ::std::string::String) {
            put_map(out, self.iter())
        }
    }
    impl<K: Put, V: Put> Put for ::std::collections::BTreeMap<K, V> {
        fn put(&self, out: &mut ::std::string::String) {
            put_map(out, self.iter())
        }
    }
    macro_rules! put_tuple {
        ($($n:tt $t:ident),+) => {
            impl<$($t: Put),+> Put for ($($t,)+) {
                fn put(&self, out: &mut ::std::string::String) {
                    out.push_str("{\"tuple\":[");
                    let mut first = true;
                    $(
                        if !first { out.push(','); }
                        first = false;
                        self.$n.put(out);
                    )+
                    let _ = first;
                    out.push_str("]}")
                }
            }
        };
    }
    put_tuple!(0 A);
    put_tuple!(0 A, 1 B);
    put_tuple!(0 A, 1 B, 2 C);
    put_tuple!(0 A, 1 B, 2 C, 3 D);
    put_tuple!(0 A, 1 B, 2 C, 3 D, 4 E);
    put_tuple!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F);
    put_tuple!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G);
    put_tuple!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H);

    /// The encoding of one value.
    pub fn encode<T: Put + ?Sized>(v: &T) -> ::std::string::String {
        let mut out = ::std::string::String::new();
        v.put(&mut out);
        out
    }

    // ---- decoding ----

    /// A value decoded from the wire into a type of the receiver's own.
    pub trait Take: Sized {
        fn take(v: &Value, depth: usize) -> Res<Self>;
    }

    fn deeper(depth: usize) -> Res<usize> {
        if depth >= MAX_DEPTH {
            bad("nested too deeply")
        } else {
            ::std::result::Result::Ok(depth + 1)
        }
    }

    fn int_text(v: &Value) -> Res<&str> {
        match v {
            Value::Num(t) if !t.contains(['.', 'e', 'E']) => ::std::result::Result::Ok(t),
            _ => bad("not an integer"),
        }
    }

    impl Take for () {
        fn take(v: &Value, _: usize) -> Res<Self> {
            match v {
                Value::Null => ::std::result::Result::Ok(()),
                _ => bad("not null"),
            }
        }
    }
    impl Take for bool {
        fn take(v: &Value, _: usize) -> Res<Self> {
            match v {
                Value::Bool(b) => ::std::result::Result::Ok(*b),
                _ => bad("not a bool"),
            }
        }
    }
    macro_rules! take_int {
        ($($t:ty),*) => {$(
            impl Take for $t {
                fn take(v: &Value, _: usize) -> Res<Self> {
                    int_text(v)?.parse::<$t>().map_err(|_| ::std::format!("not a {}", stringify!($t)))
                }
            }
        )*};
    }
    take_int!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

    fn float_of(v: &Value) -> Res<f64> {
        match v {
            Value::Num(t) => t.parse::<f64>().map_err(|_| ::std::string::String::from("not a float")),
            _ => match v.tagged("float") {
                ::std::option::Option::Some(Value::Str(s)) if s == "nan" => ::std::result::Result::Ok(f64::NAN),
                ::std::option::Option::Some(Value::Str(s)) if s == "inf" => ::std::result::Result::Ok(f64::INFINITY),
                ::std::option::Option::Some(Value::Str(s)) if s == "-inf" => ::std::result::Result::Ok(f64::NEG_INFINITY),
                _ => bad("not a float"),
            },
        }
    }
    impl Take for f64 {
        fn take(v: &Value, _: usize) -> Res<Self> {
            float_of(v)
        }
    }
    impl Take for f32 {
        fn take(v: &Value, _: usize) -> Res<Self> {
            match v {
                Value::Num(t) => t.parse::<f32>().map_err(|_| ::std::string::String::from("not a float")),
                _ => float_of(v).map(|x| x as f32),
            }
        }
    }
    impl Take for char {
        fn take(v: &Value, _: usize) -> Res<Self> {
            match v.tagged("char") {
                ::std::option::Option::Some(Value::Str(s)) if s.chars().count() == 1 => {
                    ::std::result::Result::Ok(s.chars().next().unwrap_or('\0'))
                }
                _ => bad("not a char"),
            }
        }
    }
    impl Take for ::std::string::String {
        fn take(v: &Value, _: usize) -> Res<Self> {
            match v {
                Value::Str(s) => ::std::result::Result::Ok(s.clone()),
                _ => bad("not a string"),
            }
        }
    }
    /// A `&str` inside a value (`Vec<&str>`, `HashMap<&str, &str>`): the string is kept for
    /// the process's life (a call's arguments, or an answer, at most its memory limit).
    impl Take for &'static str {
        fn take(v: &Value, depth: usize) -> Res<Self> {
            let s: ::std::string::String = Take::take(v, depth)?;
            ::std::result::Result::Ok(::std::boxed::Box::leak(s.into_boxed_str()))
        }
    }
    impl<T: Take> Take for ::std::boxed::Box<T> {
        fn take(v: &Value, depth: usize) -> Res<Self> {
            T::take(v, depth).map(::std::boxed::Box::new)
        }
    }
    impl<T: Take> Take for ::std::option::Option<T> {
        fn take(v: &Value, depth: usize) -> Res<Self> {
            match v {
                Value::Null => ::std::result::Result::Ok(::std::option::Option::None),
                _ => T::take(v, depth).map(::std::option::Option::Some),
            }
        }
    }

    fn items(v: &Value) -> Res<&[Value]> {
        match v {
            Value::List(x) => ::std::result::Result::Ok(x),
            _ => bad("not a list"),
        }
    }
    fn tagged_items<'v>(v: &'v Value, tag: &str) -> Res<&'v [Value]> {
        match v.tagged(tag) {
            ::std::option::Option::Some(Value::List(x)) => ::std::result::Result::Ok(x),
            _ => bad(&::std::format!("not a {}", tag)),
        }
    }
    impl<T: Take> Take for ::std::vec::Vec<T> {
        fn take(v: &Value, depth: usize) -> Res<Self> {
            let d = deeper(depth)?;
            items(v)?.iter().map(|x| T::take(x, d)).collect()
        }
    }
    impl<T: Take> Take for ::std::collections::VecDeque<T> {
        fn take(v: &Value, depth: usize) -> Res<Self> {
            let d = deeper(depth)?;
            items(v)?.iter().map(|x| T::take(x, d)).collect()
        }
    }
    impl<T: Take, const N: usize> Take for [T; N] {
        fn take(v: &Value, depth: usize) -> Res<Self> {
            let all: ::std::vec::Vec<T> = ::std::vec::Vec::take(v, depth)?;
            all.try_into().map_err(|_| ::std::format!("not a list of {}", N))
        }
    }
    impl<T: Take + ::std::hash::Hash + ::std::cmp::Eq> Take for ::std::collections::HashSet<T> {
        fn take(v: &Value, depth: usize) -> Res<Self> {
            let d = deeper(depth)?;
            tagged_items(v, "set")?.iter().map(|x| T::take(x, d)).collect()
        }
    }
    impl<T: Take + ::std::cmp::Ord> Take for ::std::collections::BTreeSet<T> {
        fn take(v: &Value, depth: usize) -> Res<Self> {
            let d = deeper(depth)?;
            tagged_items(v, "set")?.iter().map(|x| T::take(x, d)).collect()
        }
    }
    fn pairs<K: Take, V: Take>(v: &Value, depth: usize) -> Res<::std::vec::Vec<(K, V)>> {
        let d = deeper(depth)?;
        tagged_items(v, "map")?
            .iter()
            .map(|kv| match kv {
                Value::List(p) if p.len() == 2 => ::std::result::Result::Ok((K::take(&p[0], d)?, V::take(&p[1], d)?)),
                _ => bad("not a map's pair"),
            })
            .collect()
    }
    impl<K: Take + ::std::hash::Hash + ::std::cmp::Eq, V: Take> Take for ::std::collections::HashMap<K, V> {
        fn take(v: &Value, depth: usize) -> Res<Self> {
            pairs(v, depth).map(|p| p.into_iter().collect())
        }
    }
    impl<K: Take + ::std::cmp::Ord, V: Take> Take for ::std::collections::BTreeMap<K, V> {
        fn take(v: &Value, depth: usize) -> Res<Self> {
            pairs(v, depth).map(|p| p.into_iter().collect())
        }
    }
    macro_rules! take_tuple {
        ($len:expr; $($n:tt $t:ident),+) => {
            impl<$($t: Take),+> Take for ($($t,)+) {
                fn take(v: &Value, depth: usize) -> Res<Self> {
                    let d = deeper(depth)?;
                    let x = tagged_items(v, "tuple")?;
                    if x.len() != $len {
                        return bad(&::std::format!("not a tuple of {}", $len));
                    }
                    ::std::result::Result::Ok(($($t::take(&x[$n], d)?,)+))
                }
            }
        };
    }
    take_tuple!(1; 0 A);
    take_tuple!(2; 0 A, 1 B);
    take_tuple!(3; 0 A, 1 B, 2 C);
    take_tuple!(4; 0 A, 1 B, 2 C, 3 D);
    take_tuple!(5; 0 A, 1 B, 2 C, 3 D, 4 E);
    take_tuple!(6; 0 A, 1 B, 2 C, 3 D, 4 E, 5 F);
    take_tuple!(7; 0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G);
    take_tuple!(8; 0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H);

    /// What a parameter of type Self is decoded into (the host passes `&it` for `&T`):
    /// `str` into a String, `[T]` into a Vec, any type Take decodes into itself.
    pub trait Own {
        type O: Take;
    }
    impl Own for str {
        type O = ::std::string::String;
    }
    impl<T: Take> Own for [T] {
        type O = ::std::vec::Vec<T>;
    }
    impl<T: Take> Own for T {
        type O = T;
    }

    /// One value decoded into T.
    pub fn decode<T: Take>(v: &Value) -> Res<T> {
        T::take(v, 0)
    }
}
