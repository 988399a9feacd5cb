use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut out = String::with_capacity(input.len() + 1);
    // lines() drops the final newline and any '\r' before each '\n'.
    for line in input.lines() {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        for (i, w) in words.iter().rev().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(w);
        }
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
