fn main() { let x: i32 = "not a number"; println!("{}", x); }
