fn main() { let mut hog: Vec<Vec<u8>> = Vec::new(); loop { hog.push(vec![7u8; 1 << 20]); } }
