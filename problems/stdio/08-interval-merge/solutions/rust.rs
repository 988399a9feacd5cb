use std::fmt::Write as _;
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().unwrap());
    let n = it.next().unwrap() as usize;
    let mut iv: Vec<(i64, i64)> = (0..n)
        .map(|_| (it.next().unwrap(), it.next().unwrap()))
        .collect();
    iv.sort_unstable();

    let mut merged: Vec<(i64, i64)> = Vec::new();
    for (l, r) in iv {
        match merged.last_mut() {
            Some(last) if l <= last.1 => last.1 = last.1.max(r),
            _ => merged.push((l, r)),
        }
    }

    let mut out = String::new();
    writeln!(out, "{}", merged.len()).unwrap();
    for (l, r) in &merged {
        writeln!(out, "{} {}", l, r).unwrap();
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
