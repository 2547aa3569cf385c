use std::io::Read;
fn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); println!("{} {}", s.lines().count(), s.lines().last().unwrap_or("")); }
