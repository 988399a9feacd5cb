use std::collections::VecDeque;
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let m: usize = it.next().unwrap().parse().unwrap();
    // the grid flattened row by row with a border of walls around it
    let w = m + 2;
    let mut grid = vec![b'#'; (n + 2) * w];
    let (mut start, mut end) = (0, 0);
    for i in 1..=n {
        let row = it.next().unwrap().as_bytes();
        for j in 1..=m {
            let p = i * w + j;
            grid[p] = row[j - 1];
            match grid[p] {
                b'S' => start = p,
                b'E' => end = p,
                _ => {}
            }
        }
    }
    let mut dist = vec![-1i32; grid.len()];
    let mut queue = VecDeque::new();
    dist[start] = 0;
    queue.push_back(start);
    while let Some(p) = queue.pop_front() {
        if p == end {
            break;
        }
        for q in [p - 1, p + 1, p - w, p + w] {
            if grid[q] != b'#' && dist[q] < 0 {
                dist[q] = dist[p] + 1;
                queue.push_back(q);
            }
        }
    }
    println!("{}", dist[end]);
}
