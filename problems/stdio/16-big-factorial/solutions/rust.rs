use std::fmt::Write as _;
use std::io::{self, Read};

const BASE: u64 = 1_000_000_000;

/// n! in base 10^9, least significant limb first.
fn factorial(n: u64) -> Vec<u64> {
    let mut limbs = vec![1u64];
    for k in 2..=n {
        let mut carry = 0u64;
        for l in limbs.iter_mut() {
            let cur = *l * k + carry;
            *l = cur % BASE;
            carry = cur / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
    }
    limbs
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let n: u64 = input.trim().parse().unwrap();
    let limbs = factorial(n);
    let mut out = limbs.last().unwrap().to_string();
    for l in limbs.iter().rev().skip(1) {
        write!(out, "{:09}", l).unwrap();
    }
    println!("{}", out);
}
