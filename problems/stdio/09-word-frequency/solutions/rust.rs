use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, Read, Write};

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let (first, text) = match input.iter().position(|&c| c == b'\n') {
        Some(i) => (&input[..i], &input[i + 1..]),
        None => (&input[..], &input[input.len()..]),
    };
    let k: usize = std::str::from_utf8(first).unwrap().trim().parse().unwrap();

    let mut counts: HashMap<String, u32> = HashMap::new();
    for word in text
        .split(|c| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
    {
        let word = String::from_utf8(word.to_ascii_lowercase()).unwrap();
        *counts.entry(word).or_insert(0) += 1;
    }

    let mut entries: Vec<(String, u32)> = counts.into_iter().collect();
    entries.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut out = String::new();
    for (word, count) in entries.iter().take(k) {
        writeln!(out, "{} {}", word, count).unwrap();
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
