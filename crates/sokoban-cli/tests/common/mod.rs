//! Shared by the CLI's test files: run the built `sokoban` binary.

use std::io::Write;
use std::process::{Command, Stdio};

/// Run `sokoban ARGS` with `stdin` as its standard input (`None`: closed at once); returns
/// the exit code (-1 when killed by a signal), standard output and standard error.
pub fn sokoban(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sokoban"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    if let Some(text) = stdin {
        child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
