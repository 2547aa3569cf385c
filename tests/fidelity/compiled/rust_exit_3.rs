fn main() { print!("no newline"); std::process::exit(3); }
