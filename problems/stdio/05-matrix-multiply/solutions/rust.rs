use std::fmt::Write as _;
use std::io::{self, Read, Write};

const MOD: i64 = 1_000_000_007;

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().unwrap());
    let (n, m, p) = (
        it.next().unwrap() as usize,
        it.next().unwrap() as usize,
        it.next().unwrap() as usize,
    );
    let mut read_matrix = |rows: usize, cols: usize| -> Vec<Vec<i64>> {
        (0..rows)
            .map(|_| {
                (0..cols)
                    .map(|_| it.next().unwrap().rem_euclid(MOD))
                    .collect()
            })
            .collect()
    };
    let a = read_matrix(n, m);
    let b = read_matrix(m, p);

    let mut out = String::new();
    let mut row = vec![0i64; p];
    for ai in &a {
        row.iter_mut().for_each(|x| *x = 0);
        for (k, &aik) in ai.iter().enumerate() {
            for (x, &bkj) in row.iter_mut().zip(&b[k]) {
                *x = (*x + aik * bkj) % MOD;
            }
        }
        for (j, x) in row.iter().enumerate() {
            if j > 0 {
                out.push(' ');
            }
            write!(out, "{}", x).unwrap();
        }
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
