use std::io::{self, Read};

fn edit_distance(s: &[u8], t: &[u8]) -> usize {
    let mut prev: Vec<usize> = (0..=t.len()).collect();
    let mut cur = vec![0usize; t.len() + 1];
    for (i, &a) in s.iter().enumerate() {
        cur[0] = i + 1;
        for (j, &b) in t.iter().enumerate() {
            let replace = prev[j] + usize::from(a != b);
            cur[j + 1] = replace.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[t.len()]
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut words = input.split_ascii_whitespace();
    let s = words.next().unwrap().as_bytes();
    let t = words.next().unwrap().as_bytes();
    println!("{}", edit_distance(s, t));
}
