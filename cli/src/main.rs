//! The `pgnkit` binary: everything is in the library ([`pgnkit::main`]).

fn main() -> std::process::ExitCode {
    pgnkit::main()
}
