fn main() { println!("before"); let v: Vec<i32> = Vec::new(); println!("{}", v[3]); }
