use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let mut best = i64::MIN;
    let mut best_here = 0i64; // the best sum of a block ending at the current element
    for t in it.take(n) {
        let a: i64 = t.parse().unwrap();
        best_here = best_here.max(0) + a;
        best = best.max(best_here);
    }
    println!("{}", best);
}
