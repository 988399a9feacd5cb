// The grader's side of the channel (runners/job.h: it writes calls on fd 4 and reads answers
// on fd 3), compiled with the tests into a binary of their own (languages/README.md, "A
// compiled grader"). The entry point the tests call is a proxy with the prompt's own
// declaration (verdict_proxy!, over the declaration's tokens), whose body is
// verdict_grader::call: each call is sent as {"call":NAME,"args":[...]} and its answer decoded
// by wire.rs into the declared return type, so the tests compare values of their own types,
// never an object of the program's making. Exit status (languages/wire.md): 0 when the tests
// ran to their end and passed; 1 at the first failed check (a panic of the tests, turned into
// an exit by the panic hook below); 2 at once when the program broke a call (raised, exited,
// closed its channel, answered out of protocol), which no test can catch (process::exit, not
// a panic).
#[allow(dead_code)]
pub mod verdict_grader {
    use crate::verdict_wire as w;

    struct Channel {
        answers: ::std::io::BufReader<::std::fs::File>,
        calls: ::std::fs::File,
    }

    static CHANNEL: ::std::sync::Mutex<::std::option::Option<Channel>> =
        ::std::sync::Mutex::new(::std::option::Option::None);

    pub fn broke(name: &str, why: &str, detail: &str) -> ! {
        let d: ::std::string::String = detail.chars().take(2000).collect();
        let line = if d.is_empty() {
            ::std::format!("verdict grader: the program broke the call of {}: {}\n", name, why)
        } else {
            ::std::format!("verdict grader: the program broke the call of {}: {}: {}\n", name, why, d)
        };
        let _ = ::std::io::Write::write_all(&mut ::std::io::stderr(), line.as_bytes());
        ::std::process::exit(2)
    }

    /// One line from the answers, without its newline; None at EOF or past max bytes.
    fn read_line(r: &mut ::std::io::BufReader<::std::fs::File>, max: usize) -> ::std::option::Option<::std::string::String> {
        let mut line: ::std::vec::Vec<u8> = ::std::vec::Vec::new();
        loop {
            let buf = ::std::io::BufRead::fill_buf(r).ok()?;
            if buf.is_empty() {
                return ::std::option::Option::None;
            }
            let (take, done) = match buf.iter().position(|&b| b == b'\n') {
                ::std::option::Option::Some(i) => (i + 1, true),
                ::std::option::Option::None => (buf.len(), false),
            };
            line.extend_from_slice(&buf[..take]);
            ::std::io::BufRead::consume(r, take);
            if line.len() > max + 1 {
                return ::std::option::Option::None;
            }
            if done {
                line.pop();
                return ::std::string::String::from_utf8(line).ok();
            }
        }
    }

    /// Every panic of the grader's process is a failed check: exit status 1 (see above).
    pub fn set_panic_hook() {
        ::std::panic::set_hook(::std::boxed::Box::new(|info| {
            let m = ::std::format!("verdict grader: a check failed: {}\n", info);
            let _ = ::std::io::Write::write_all(&mut ::std::io::stderr(), m.as_bytes());
            ::std::process::exit(1)
        }));
    }

    /// The call of the program's NAME with these arguments, its answer decoded into R.
    pub fn call<R: w::Take>(name: &str, args: &[&dyn w::Put]) -> R {
        let mut guard = CHANNEL.lock().unwrap_or_else(|e| e.into_inner());
        let ch = guard.get_or_insert_with(|| unsafe {
            Channel {
                answers: ::std::io::BufReader::with_capacity(
                    1 << 16,
                    <::std::fs::File as ::std::os::unix::io::FromRawFd>::from_raw_fd(3),
                ),
                calls: <::std::fs::File as ::std::os::unix::io::FromRawFd>::from_raw_fd(4),
            }
        });
        if !ch.answers.buffer().is_empty() {
            broke(name, "it wrote on its channel between calls", "");
        }
        let mut msg = ::std::string::String::from("{\"call\":");
        w::put_str(&mut msg, name);
        msg.push_str(",\"args\":[");
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                msg.push(',');
            }
            a.put(&mut msg);
        }
        msg.push_str("]}\n");
        if ::std::io::Write::write_all(&mut ch.calls, msg.as_bytes()).is_err() {
            broke(name, "it exited or closed its channel before answering", "");
        }
        let line = match read_line(&mut ch.answers, w::MAX_LINE) {
            ::std::option::Option::Some(l) => l,
            ::std::option::Option::None => broke(name, "it exited or closed its channel before answering", ""),
        };
        let v = match w::parse(&line) {
            ::std::result::Result::Ok(v) => v,
            ::std::result::Result::Err(_) => broke(name, "its answer is not a value of the wire", ""),
        };
        if let ::std::option::Option::Some(ok) = v.tagged("ok") {
            return match w::decode::<R>(ok) {
                ::std::result::Result::Ok(r) => r,
                ::std::result::Result::Err(e) => broke(name, "its answer is not a value of the declared return type", &e),
            };
        }
        match (&v, v.field("raise"), v.field("message")) {
            (w::Value::Obj(f), ::std::option::Option::Some(w::Value::Str(t)), ::std::option::Option::Some(w::Value::Str(m))) if f.len() == 2 => {
                let what = if m.is_empty() { t.clone() } else { ::std::format!("{}: {}", t, m) };
                broke(name, "it raised", &what)
            }
            _ => broke(name, "its answer is not a value of the wire", ""),
        }
    }
}

/// The proxy: the prompt's declaration (its tokens, a parameter's `mut` dropped), whose body
/// sends the call, and the panic hook: a failed check (a panic of the tests: assert!,
/// assert_eq!, an unwrap on the program's answers) ends the grader at once with status 1, its
/// message on stderr (written past libtest's capture of the print macros), before anything
/// could catch it. The hook is set from .init_array, before main, by a static the macro writes
/// into the grader's own crate (one in a library's object could be left out by the linker).
/// Generic declarations match no rule: the grader does not compile, and the problem is sealed
/// in-process as before.
#[macro_export]
macro_rules! verdict_proxy {
    ($(#[$m:meta])* $vis:vis fn $name:ident ( $( $p:ident : $t:ty ),* $(,)? ) $(-> $r:ty)?) => {
        #[allow(unused_mut, clippy::all)]
        $vis fn $name( $( $p : $t ),* ) $(-> $r)? {
            $crate::verdict_grader::call(stringify!($name), &[ $( &$p as &dyn $crate::verdict_wire::Put ),* ])
        }
        #[used]
        #[link_section = ".init_array"]
        static VERDICT_GRADER_INIT: extern "C" fn() = {
            extern "C" fn init() {
                $crate::verdict_grader::set_panic_hook()
            }
            init
        };
    };
}
