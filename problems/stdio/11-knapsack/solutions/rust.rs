use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u64>().unwrap());
    let n = it.next().unwrap() as usize;
    let cap = it.next().unwrap() as usize;
    // best[c]: the largest value of a subset of the items so far with weight <= c
    let mut best = vec![0u64; cap + 1];
    for _ in 0..n {
        let w = it.next().unwrap() as usize;
        let v = it.next().unwrap();
        for c in (w..=cap).rev() {
            best[c] = best[c].max(best[c - w] + v);
        }
    }
    println!("{}", best[cap]);
}
