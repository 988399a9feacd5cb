fn main() { println!("hello"); }
