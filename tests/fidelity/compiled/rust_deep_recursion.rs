fn depth(n: u64, seen: &mut Vec<u64>) -> u64 {
    if n == 0 { return 1; }
    seen.push(n);
    let below = depth(n - 1, seen);
    below.wrapping_mul(3) ^ seen[(n as usize) % seen.len()]
}
fn main() { let mut seen = Vec::new(); println!("{}", depth(1_000_000, &mut seen)); }
