use std::io::{self, Read, Write};

const TABLE: [(u32, &str); 13] = [
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
];

fn to_roman(mut n: u32) -> String {
    let mut out = String::new();
    for &(value, symbol) in TABLE.iter() {
        while n >= value {
            out.push_str(symbol);
            n -= value;
        }
    }
    out
}

fn symbol_value(c: u8) -> i32 {
    match c {
        b'I' => 1,
        b'V' => 5,
        b'X' => 10,
        b'L' => 50,
        b'C' => 100,
        b'D' => 500,
        b'M' => 1000,
        _ => 0,
    }
}

fn from_roman(s: &[u8]) -> i32 {
    let mut total = 0;
    for (i, &c) in s.iter().enumerate() {
        let v = symbol_value(c);
        // a symbol smaller than the one after it is subtracted
        if i + 1 < s.len() && v < symbol_value(s[i + 1]) {
            total -= v;
        } else {
            total += v;
        }
    }
    total
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut out = String::new();
    for tok in input.split_ascii_whitespace() {
        if tok.as_bytes()[0].is_ascii_digit() {
            out.push_str(&to_roman(tok.parse().unwrap()));
        } else {
            out.push_str(&from_roman(tok.as_bytes()).to_string());
        }
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
