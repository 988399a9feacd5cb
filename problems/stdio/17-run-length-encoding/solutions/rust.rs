use std::io::{self, Read, Write};

fn encode(line: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < line.len() {
        let mut j = i;
        while j < line.len() && line[j] == line[i] {
            j += 1;
        }
        out.push(line[i]);
        out.extend_from_slice((j - i).to_string().as_bytes());
        i = j;
    }
    out.push(b'\n');
}

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let body = input.strip_suffix(b"\n").unwrap_or(&input);
    let mut out = Vec::with_capacity(input.len() * 2);
    if !input.is_empty() {
        for line in body.split(|&c| c == b'\n') {
            encode(line, &mut out);
        }
    }
    io::stdout().write_all(&out).unwrap();
}
