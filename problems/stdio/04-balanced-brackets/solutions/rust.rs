use std::io::{self, Read, Write};

fn balanced(s: &[u8], stack: &mut Vec<u8>) -> bool {
    stack.clear();
    for &c in s {
        match c {
            b'(' | b'[' | b'{' => stack.push(c),
            _ => {
                let want = match c {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                if stack.pop() != Some(want) {
                    return false;
                }
            }
        }
    }
    stack.is_empty()
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let t: usize = it.next().unwrap().parse().unwrap();
    let mut stack = Vec::new();
    let mut out = String::with_capacity(t * 4);
    for s in it.take(t) {
        out.push_str(if balanced(s.as_bytes(), &mut stack) {
            "YES\n"
        } else {
            "NO\n"
        });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
