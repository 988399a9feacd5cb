use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let k: usize = it.next().unwrap().parse().unwrap();
    let mut a: Vec<i32> = it.take(n).map(|t| t.parse().unwrap()).collect();
    let (_, kth, _) = a.select_nth_unstable(k - 1);
    println!("{}", kth);
}
