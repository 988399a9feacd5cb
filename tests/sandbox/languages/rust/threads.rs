fn main() { let t = std::thread::spawn(|| 42); println!("{}", t.join().unwrap()); }
