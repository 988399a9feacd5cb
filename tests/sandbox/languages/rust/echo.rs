use std::io::{self, Read, Write};
fn main() { let mut s = Vec::new(); io::stdin().read_to_end(&mut s).unwrap(); io::stdout().write_all(&s).unwrap(); }
