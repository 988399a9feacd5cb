fn main() { let mut x: u64 = 0; loop { x = std::hint::black_box(x + 1); } }
