// The program's side of the grader's channel (runners/job.h: calls read on fd 3, answers
// written on fd 4), compiled after the program's own code. It holds no test and decides
// nothing: for each {"call":NAME,"args":[...]} it decodes the arguments (verdict_host!, over
// the declaration's tokens: `&str` from a String, `&[T]` from a Vec, `&mut T` from a T of its
// own, a value into the type the program's function takes), calls the program's function
// with them, and answers {"ok":V} with the result as its own type encodes it, or
// {"raise":"panic","message":TEXT} when the call panicked. The program is built `#![no_main]`
// (the answer's own `fn main`, which HumanEval-X's prompts declare, is then an ordinary
// function): its entry is verdict_host's `main`, C's.
#[allow(dead_code)]
pub mod verdict_host {
    use crate::verdict_wire as w;

    fn raised(t: &str, m: &str) -> ::std::string::String {
        let mut o = ::std::string::String::from("{\"raise\":");
        w::put_str(&mut o, t);
        o.push_str(",\"message\":");
        let m: ::std::string::String = m.chars().take(2000).collect();
        w::put_str(&mut o, &m);
        o.push_str("}\n");
        o
    }

    /// An argument decoded, or the reason it could not be.
    pub fn arg<T: w::Take>(a: &[w::Value], i: usize) -> ::std::result::Result<T, ::std::string::String> {
        match a.get(i) {
            ::std::option::Option::Some(v) => w::decode::<T>(v),
            ::std::option::Option::None => ::std::result::Result::Err(::std::string::String::from("too few arguments")),
        }
    }

    /// A value that must outlive the call (a `&'a T` parameter): kept for the process's life.
    pub fn leak<T>(x: T) -> &'static mut T {
        ::std::boxed::Box::leak(::std::boxed::Box::new(x))
    }

    /// Answers calls of `name` until the grader closes the channel; never returns.
    pub fn serve(
        name: &str,
        dispatch: fn(&[w::Value]) -> ::std::result::Result<::std::string::String, ::std::string::String>,
    ) -> ! {
        let mut answers = unsafe { <::std::fs::File as ::std::os::unix::io::FromRawFd>::from_raw_fd(4) };
        let mut calls = ::std::io::BufReader::with_capacity(
            1 << 16,
            unsafe { <::std::fs::File as ::std::os::unix::io::FromRawFd>::from_raw_fd(3) },
        );
        loop {
            let mut line = ::std::string::String::new();
            match ::std::io::BufRead::read_line(&mut calls, &mut line) {
                ::std::result::Result::Ok(0) | ::std::result::Result::Err(_) => ::std::process::exit(0),
                _ => {}
            }
            let reply = answer(name, dispatch, line.trim_end_matches('\n'));
            if ::std::io::Write::write_all(&mut answers, reply.as_bytes()).is_err() {
                ::std::process::exit(0);
            }
        }
    }

    fn answer(
        name: &str,
        dispatch: fn(&[w::Value]) -> ::std::result::Result<::std::string::String, ::std::string::String>,
        line: &str,
    ) -> ::std::string::String {
        let v = match w::parse(line) {
            ::std::result::Result::Ok(v) => v,
            ::std::result::Result::Err(e) => return raised("ValueError", &::std::format!("the grader's call could not be parsed: {}", e)),
        };
        let args = match (v.field("call"), v.field("args")) {
            (::std::option::Option::Some(w::Value::Str(n)), ::std::option::Option::Some(w::Value::List(a))) if n == name => a.clone(),
            _ => return raised("ValueError", "not a call of the served function"),
        };
        match ::std::panic::catch_unwind(|| dispatch(&args)) {
            ::std::result::Result::Ok(::std::result::Result::Ok(enc)) => {
                let mut o = ::std::string::String::from("{\"ok\":");
                o.push_str(&enc);
                o.push_str("}\n");
                o
            }
            ::std::result::Result::Ok(::std::result::Result::Err(why)) => {
                raised("TypeError", &::std::format!("the grader's call could not be decoded: {}", why))
            }
            ::std::result::Result::Err(p) => {
                let m = if let ::std::option::Option::Some(s) = p.downcast_ref::<&str>() {
                    ::std::string::String::from(*s)
                } else if let ::std::option::Option::Some(s) = p.downcast_ref::<::std::string::String>() {
                    s.clone()
                } else {
                    ::std::string::String::new()
                };
                raised("panic", &m)
            }
        }
    }
}

/// The host's dispatch for the prompt's declaration (its tokens, a parameter's `mut`
/// dropped) and C's `main`, which serves it.
#[macro_export]
macro_rules! verdict_host {
    (@go $f:path, $a:ident, [$($done:tt)*], $i:expr ;) => {{
        if $a.len() != $i {
            return ::std::result::Result::Err(::std::format!("{} arguments, not {}", $a.len(), $i));
        }
        $f($($done)*)
    }};
    (@go $f:path, $a:ident, [$($done:tt)*], $i:expr ; $p:ident : & $l:lifetime mut $t:ty $(, $($rest:tt)*)?) => {
        $crate::verdict_host!(@go $f, $a, [$($done)* &mut *$crate::verdict_host::leak($crate::verdict_host::arg::<<$t as $crate::verdict_wire::Own>::O>($a, $i)?),], $i + 1 ; $($($rest)*)?)
    };
    (@go $f:path, $a:ident, [$($done:tt)*], $i:expr ; $p:ident : & $l:lifetime $t:ty $(, $($rest:tt)*)?) => {
        $crate::verdict_host!(@go $f, $a, [$($done)* &*$crate::verdict_host::leak($crate::verdict_host::arg::<<$t as $crate::verdict_wire::Own>::O>($a, $i)?),], $i + 1 ; $($($rest)*)?)
    };
    (@go $f:path, $a:ident, [$($done:tt)*], $i:expr ; $p:ident : & mut $t:ty $(, $($rest:tt)*)?) => {
        $crate::verdict_host!(@go $f, $a, [$($done)* &mut $crate::verdict_host::arg::<<$t as $crate::verdict_wire::Own>::O>($a, $i)?,], $i + 1 ; $($($rest)*)?)
    };
    (@go $f:path, $a:ident, [$($done:tt)*], $i:expr ; $p:ident : & $t:ty $(, $($rest:tt)*)?) => {
        $crate::verdict_host!(@go $f, $a, [$($done)* &$crate::verdict_host::arg::<<$t as $crate::verdict_wire::Own>::O>($a, $i)?,], $i + 1 ; $($($rest)*)?)
    };
    // An argument by value is decoded into the type the program's function takes (inferred
    // from the call), as the tests' literals would adapt to it (`usize` where the prompt says
    // `isize`); the grader encoded it from the declared type.
    (@go $f:path, $a:ident, [$($done:tt)*], $i:expr ; $p:ident : $t:ty $(, $($rest:tt)*)?) => {
        $crate::verdict_host!(@go $f, $a, [$($done)* $crate::verdict_host::arg::<_>($a, $i)?,], $i + 1 ; $($($rest)*)?)
    };
    (@served $name:ident, ($($params:tt)*) $(-> $r:ty)?) => {
        pub fn dispatch(a: &[$crate::verdict_wire::Value]) -> ::std::result::Result<::std::string::String, ::std::string::String> {
            // the result as the program's function types it: the grader decodes it into the
            // declared type, or refuses it
            let r = $crate::verdict_host!(@go super::$name, a, [], 0usize ; $($params)*);
            ::std::result::Result::Ok($crate::verdict_wire::encode(&r))
        }
    };
    // The grader writes the same dispatch against its proxy, never called: a declaration the
    // host could not serve then fails the grader's build, and the problem stays sealed,
    // rather than failing every answer's (CE).
    (@check $(#[$m:meta])* $vis:vis fn $name:ident ( $($params:tt)* ) $(-> $r:ty)?) => {
        #[allow(unused_imports, dead_code)]
        mod verdict_host_check {
            use super::*;
            $crate::verdict_host!(@served $name, ($($params)*) $(-> $r)?);
        }
    };
    ($(#[$m:meta])* $vis:vis fn $name:ident ( $($params:tt)* ) $(-> $r:ty)?) => {
        #[allow(unused_imports, dead_code)]
        mod verdict_served {
            use super::*;
            $crate::verdict_host!(@served $name, ($($params)*) $(-> $r)?);
            #[no_mangle]
            pub extern "C" fn main(_argc: i32, _argv: *const *const u8) -> i32 {
                $crate::verdict_host::serve(stringify!($name), dispatch)
            }
        }
    };
}
