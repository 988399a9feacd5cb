use rand::Rng;
use regex::Regex;
fn main() {
    let mut r = rand::thread_rng();
    let x: u32 = r.gen_range(0..10);
    let re = Regex::new(r"^\d+$").unwrap();
    println!("{} {} {:x}", x < 10, re.is_match("123"), md5::compute(b"abc"));
}
