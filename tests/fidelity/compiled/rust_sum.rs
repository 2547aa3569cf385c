use std::io::*;
fn main() {
    let mut s = String::new();
    stdin().read_line(&mut s).unwrap();
    let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();
    println!("{}", v[0] + v[1]);
}
