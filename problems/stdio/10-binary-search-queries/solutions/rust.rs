use std::fmt::Write as _;
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().unwrap());
    let n = it.next().unwrap() as usize;
    let a: Vec<i64> = (0..n).map(|_| it.next().unwrap()).collect();
    let q = it.next().unwrap() as usize;

    let mut out = String::with_capacity(q * 7);
    for _ in 0..q {
        let l = it.next().unwrap();
        let r = it.next().unwrap();
        let count = if l <= r {
            a.partition_point(|&x| x <= r) - a.partition_point(|&x| x < l)
        } else {
            0
        };
        writeln!(out, "{}", count).unwrap();
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
