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
        // A run that ends before reading its input (a usage error) closes the pipe: the
        // write then fails with a broken pipe, which is the child's answer, not an error.
        match child.stdin.take().unwrap().write_all(text.as_bytes()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            r => r.unwrap(),
        }
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
