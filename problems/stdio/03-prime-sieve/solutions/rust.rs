use std::fmt::Write as _;
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<usize>().unwrap());
    let q = it.next().unwrap();
    let qs: Vec<usize> = it.take(q).collect();
    let max = qs.iter().copied().max().unwrap_or(0).max(2);

    let mut composite = vec![false; max + 1];
    composite[0] = true;
    composite[1] = true;
    let mut i = 2;
    while i * i <= max {
        if !composite[i] {
            let mut j = i * i;
            while j <= max {
                composite[j] = true;
                j += i;
            }
        }
        i += 1;
    }
    let mut count = vec![0u32; max + 1];
    let mut c = 0u32;
    for (k, slot) in count.iter_mut().enumerate() {
        if !composite[k] {
            c += 1;
        }
        *slot = c;
    }

    let mut out = String::with_capacity(q * 8);
    for &x in &qs {
        writeln!(out, "{}", count[x]).unwrap();
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
