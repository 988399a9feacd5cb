fn main() {
    let mut b = vec![0u8; 200 << 20];
    let mut i = 0;
    while i < b.len() { b[i] = 1; i += 4096; }
    let s: usize = b.iter().step_by(4096).map(|&x| x as usize).sum();
    println!("{}", std::hint::black_box(s) * 4096 >> 20);
}
